// `npm run serve`: the built server (scripts/server.mjs) with the process settings of server-flags.mjs,
// which must be given when the process starts (V8 flags, the C library's environment).
import { spawn } from 'node:child_process';
import { serverProcess } from './server-flags.mjs';

const { command, args, env } = serverProcess();
const server = spawn(command, args, { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
