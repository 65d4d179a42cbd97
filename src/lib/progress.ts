// Dependency-free progress bars for the seed and the import: redrawn on one line on a terminal, a line
// every 10 % otherwise.

/** The bar and its writing; `describe` says what follows the bar and the percentage. */
function bar(label: string, stream: NodeJS.WriteStream, eraseRest: boolean, describe: (done: number, total: number, seconds: number) => string) {
  const started = Date.now();
  let lastDecile = -1;
  return (done: number, total: number) => {
    const ratio = total === 0 ? 1 : Math.min(1, done / total);
    const width = 30;
    const filled = Math.round(ratio * width);
    const line = `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.round(ratio * 100)}% ${describe(done, total, (Date.now() - started) / 1000)}`;
    if (stream.isTTY) stream.write(`\r${line}${eraseRest ? '\x1b[K' : ''}${done >= total ? '\n' : ''}`);
    else {
      const decile = Math.floor(ratio * 10);
      if (decile !== lastDecile) {
        lastDecile = decile;
        stream.write(`${line}\n`);
      }
    }
  };
}

/** `products [####----] 45% 900/2000 1.2s` */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr) {
  return bar(label, stream, false, (done, total, seconds) => `${done}/${total} ${seconds.toFixed(1)}s`);
}

/** A progress bar with a rate and an estimate of the time left: `offers [####----] 45% 45000/100000 offers, 3210 offers/s, 17 s left`. */
export function rateBar(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr) {
  return bar(label, stream, true, (done, total, seconds) => {
    const rate = seconds > 0 ? done / seconds : 0;
    const left = rate > 0 ? Math.ceil((total - done) / rate) : undefined;
    return `${done}/${total} ${unit}, ${Math.round(rate)} ${unit}/s, ${done >= total ? `${seconds.toFixed(1)} s` : left === undefined ? '…' : `${left} s left`}`;
  });
}
