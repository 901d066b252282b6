// A TypeScript module for transform-probe.spec.ts to require and to import().
export const answer = (): number => 42;

/** The first stack line inside this file: where Playwright's source maps put `new Error()` below. */
export function whereAmI(): string {
  const line = new Error('probe').stack?.split('\n').find((l) => l.includes('transform-probe-module'));
  return line?.trim() ?? '(no frame in this file)';
}
