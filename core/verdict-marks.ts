// The marks the harness leaves on a test for the reporters to judge it by: literals shared by fixtures/ (which
// write them) and reporters/ (which read them), and how both read an error message. One definition each.
import { stripVTControlCharacters } from 'node:util';

/** The first non-blank line of an error message, without the ANSI colours Playwright puts in. */
export function firstLine(text: string | undefined): string | undefined {
  return text === undefined
    ? undefined
    : stripVTControlCharacters(text)
        .split('\n')
        .find((l) => l.trim())
        ?.trim();
}

/**
 * The mark of an error that says nothing about conformance (the target could not be reached, the transport
 * failed): the rule matrix reports such a test as inconclusive, not as a failed rule.
 */
export const INCONCLUSIVE = '[inconclusive]';

/** The reasons of a test ended at set-up because the target was gone (core/target-lost.ts), each then `: <cause>`. */
export const TARGET_LOST = `${INCONCLUSIVE} target lost`;
export const TARGET_UNREACHABLE = `${INCONCLUSIVE} target unreachable`;

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether a reason says the target was gone: TARGET_LOST or TARGET_UNREACHABLE, then its cause. */
export const TARGET_GONE = new RegExp(`^(?:${literal(TARGET_LOST)}|${literal(TARGET_UNREACHABLE)}): `);

/** A reason without its leading inconclusive mark. */
export const withoutInconclusive = (reason: string): string =>
  reason.startsWith(`${INCONCLUSIVE} `) ? reason.slice(INCONCLUSIVE.length + 1) : reason;

/**
 * The mark of an answer that can only mean the harness's own configuration is wrong (a configured user the
 * participant does not know): the rule matrix reports such a test as a set-up verdict naming the setting —
 * not the participant's failure, nor its pass.
 */
export const SETUP = '[setup]';

/**
 * The expectation the harness set, where a fault run declared the outcome expected afterwards so that
 * Playwright keeps the worker (fixtures/outcome.ts).
 */
export const EXPECTED_STATUS_ANNOTATION = 'harness-expected-status';

/** Playwright's test id as an Allure label: the report build copies each test's verdict onto its result. */
export const TEST_ID_LABEL = 'playwrightTestId';

/** The Allure label naming the expectations layer that excuses a test (`canton`, or a team's file). */
export const DEVIATION_LABEL = 'deviation';

/** The fault a routed test of a fault run ran against (fixtures/target.ts; reporters/mutation-collector.ts). */
export const FAULT_ANNOTATION = 'fault';

/** A pinned known deviation whose alternative the test saw: the target does what Canton does. */
export const DEVIATION_SEEN = 'deviation-seen';
/** A pinned known deviation the target did not show: the test failed otherwise (its reason says how). */
export const DEVIATION_UNMET = 'deviation-unmet';
/** An expectations entry (`<layer>#<n>`) naming this test on this version, expired or not. */
export const EXPECTATION = 'expectation';
/**
 * The expectations entry (`<layer>#<n>`) that excuses this test in this run: the reports tell a verdict a team's
 * waiver gives from one Canton's baseline gives, and a change of the file from a change of the target.
 */
export const EXCUSED_BY = 'excused-by';
/** An entry naming this test that is past its `until` day: it no longer excuses. */
export const EXPECTATION_EXPIRED = 'expectation-expired';
/** The command that reruns exactly this test (fixtures/rerun.ts), for a test that did not pass as expected. */
export const RERUN_ANNOTATION = 'rerun';
/** A transient answer the harness sent its request again after (core/retry.ts): `<operation>: <answer>`. */
export const TRANSIENT_RETRIED = 'transient-retried';
