import 'reflect-metadata';
import { randomBytes } from 'node:crypto';

// A bus prefix per test file: test files share one NATS server and must not answer each
// other's requests (toolchain trap 6). Set before any module reads it.
process.env['HUB_BUS_PREFIX'] = `t${randomBytes(5).toString('hex')}`;
