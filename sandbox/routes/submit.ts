// Placeholder until the submission route lands: registers nothing.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';

export function registerSubmitRoutes(_app: FastifyInstance, _ctx: SandboxContext): void {}
