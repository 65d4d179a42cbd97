// The password and token rules other features share (the managers' console's operators): one argon2id
// setting, one breached-password list, one token hash, wherever an account lives.
export { dummyPasswordHash, hashPassword, isBreachedPassword, tokenHash, verifyPassword } from './auth.server.ts';
