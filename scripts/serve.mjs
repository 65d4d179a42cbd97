// `npm run serve`: the built server (scripts/server.mjs) with the process settings of server-flags.mjs,
// which must be given when the process starts (V8 flags, the C library's environment). This process only
// watches over the server: a stop it is asked for (SIGTERM, SIGINT, or npm going away) is passed on as a
// message, and it exits with the server's own code (0 after a graceful stop; docs/operations.md).
import { spawn } from 'node:child_process';
import { serverProcess } from './server-flags.mjs';

const { command, args, env } = serverProcess();
const server = spawn(command, args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env });
let firstStop = 0;

/** @param {string} reason @param {NodeJS.Signals} [signal] */
function stop(reason, signal) {
  if (!firstStop) {
    firstStop = Date.now();
    if (server.connected) server.send({ type: 'stop', reason });
    else server.kill('SIGTERM');
    return;
  }
  // A terminal's Ctrl-C reaches this process twice (from the terminal and again from npm) within a
  // moment: one stop. A signal sent later means "now", and goes to the server as a signal.
  if (signal && Date.now() - firstStop > 1_000) server.kill(signal);
}

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => stop(signal, signal));
// Under npm (`npm start`, `npm run serve`) npm is the parent: when it is killed outright it cannot pass
// anything on, and this process would live on as an orphan holding the port and the database.
const parent = process.ppid;
if (process.env['npm_lifecycle_event']) {
  setInterval(() => {
    if (process.ppid !== parent) stop('npm gone');
  }, 1_000).unref();
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
