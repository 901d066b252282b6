// Playwright's runner puts a code snippet on every error of a test or step, and colours it by tokenising the
// whole file the error points into, each time (runner/index.js: addLocationAndSnippetToError → codeFrame →
// highlight). Its colours are on whatever the terminal: the `colors` package it bundles enables itself when
// supportsColor() returns anything but false, and it returns 0 for "no colour". Fault runs fail hundreds of
// tests on purpose: most of the runner's CPU in a fault run went there. Without colours the snippet is the same
// text, cut from the raw lines. `playwright-core/lib/utilsBundle` is in that package's exports map.

type Bundle = { colors?: { disable?: () => void } };

// oxlint-disable-next-line typescript/no-require-imports -- an untyped module of playwright-core's exports map
const utilsBundle = (): Bundle => require('playwright-core/lib/utilsBundle') as Bundle;

/**
 * Plain (uncoloured) error snippets in this runner process; a no-op if Playwright's layout changes. Returns
 * whether the colours were turned off.
 */
export function plainErrorSnippets(load: () => Bundle = utilsBundle): boolean {
  try {
    const colors = load().colors;
    if (typeof colors?.disable !== 'function') return false;
    colors.disable();
    return true;
  } catch {
    // Another layout: snippets stay coloured, which costs time only.
    return false;
  }
}
