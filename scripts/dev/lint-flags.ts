// Node's flags for ESLint and Prettier, shared by `npm run lint` and selftest/project/static.test.ts. Both tools
// allocate short-lived objects by the million: a larger young generation collects them less often, and one
// collector thread spares the cost of coordinating helpers the other tools already keep busy.
export const LINT_NODE_FLAGS = ['--single-threaded-gc', '--max-semi-space-size=64'];
