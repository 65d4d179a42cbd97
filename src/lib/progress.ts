// A dependency-free progress bar for the seed: redraws one line on a terminal, prints every 10 % otherwise.
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr) {
  const started = Date.now();
  let lastDecile = -1;
  return (done: number, total: number) => {
    const ratio = total === 0 ? 1 : done / total;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const width = 30;
    const filled = Math.round(ratio * width);
    const line = `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.round(ratio * 100)}% ${done}/${total} ${seconds}s`;
    if (stream.isTTY) {
      stream.write(`\r${line}${done >= total ? '\n' : ''}`);
    } else {
      const decile = Math.floor(ratio * 10);
      if (decile !== lastDecile) {
        lastDecile = decile;
        stream.write(`${line}\n`);
      }
    }
  };
}

/** A progress bar with a rate and an estimate of the time left: `offers [####----] 45% 45000/100000 3210/s, 17 s left`. */
export function rateBar(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr) {
  const started = Date.now();
  let lastDecile = -1;
  return (done: number, total: number) => {
    const ratio = total === 0 ? 1 : Math.min(1, done / total);
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const left = rate > 0 ? Math.ceil((total - done) / rate) : undefined;
    const width = 30;
    const filled = Math.round(ratio * width);
    const line =
      `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.round(ratio * 100)}% ${done}/${total} ${unit}, ` +
      `${Math.round(rate)} ${unit}/s, ${done >= total ? `${seconds.toFixed(1)} s` : left === undefined ? '…' : `${left} s left`}`;
    if (stream.isTTY) stream.write(`\r${line}\x1b[K${done >= total ? '\n' : ''}`);
    else {
      const decile = Math.floor(ratio * 10);
      if (decile !== lastDecile) {
        lastDecile = decile;
        stream.write(`${line}\n`);
      }
    }
  };
}
