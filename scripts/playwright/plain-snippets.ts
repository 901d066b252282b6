// Playwright's runner puts a code snippet on every error of a test or step, and colours it by tokenising the
// whole file the error points into, each time (runner/index.js: addLocationAndSnippetToError → codeFrame →
// highlight). Its colours are on whatever the terminal: the `colors` package it bundles enables itself when
// supportsColor() returns anything but false, and it returns 0 for "no colour". Fault runs fail hundreds of
// tests on purpose: most of the runner's CPU in the mutation run went there (bench/README.md). Without colours
// the snippet is the same text, cut from the raw lines.

/** Plain (uncoloured) error snippets in this runner process; a no-op if Playwright's layout changes. */
export function plainErrorSnippets(): void {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an untyped module of playwright-core's exports map
    const bundle = require('playwright-core/lib/utilsBundle') as { colors?: { disable?: () => void } };
    bundle.colors?.disable?.();
  } catch {
    // Another layout: snippets stay coloured, which costs time only.
  }
}
