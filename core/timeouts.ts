// Every default timeout of the harness, before the timeout scale multiplies it (LEDGER_TIMEOUT_SCALE, or the
// one the global setup measured). The config, the transport, the token source and the probes read them here,
// and their messages are built from them; docs/running.md "Timeouts" points here.

export const TIMEOUTS = {
  /** A test, as Canton's own conformance tool allows one (30 s × its scale factor). */
  testMs: 30_000,
  /** One `expect` that polls. */
  expectMs: 5_000,
  /** One request's whole deadline (connect, headers and body), like Playwright's request timeout. */
  requestMs: 20_000,
  /** The OAuth2 IdP's token endpoint. */
  idpMs: 10_000,
  /** The quick probe that tells a dropped connection from a target that is gone. */
  lostProbeMs: 5_000,
  /** The nightly's webhook (not scaled: it is not the participant). */
  webhookMs: 20_000,
  /**
   * The answer time the default timeouts are sized for: the suite's longest test waits on its answers one after
   * the other, and at this time per answer it fits the test timeout with room for a participant slower under
   * the run's load than for one request (figure 8 of bench/README.md, a slow participant). A walk's test
   * adds it to its timeout for every page it reads (fixtures/vetting-helpers.ts).
   */
  referenceAnswerMs: 200,
} as const;

/** `20 s`: a timeout in the words of a message. */
export const seconds = (ms: number): string => `${ms / 1000} s`;

/** A timeout as a message gives it: the default and what multiplies it (`20 s × LEDGER_TIMEOUT_SCALE`). */
export const scaled = (ms: number): string => `${seconds(ms)} × LEDGER_TIMEOUT_SCALE`;
