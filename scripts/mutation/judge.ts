// Judging one fault run against the clean run, and the Markdown matrix a QA engineer reads.
import type { Fault } from '../../sandbox/faults/catalogue';
import type { RuleRow } from '../../reporters/verdicts';

export interface FaultOutcome {
  fault: string;
  breaks: string;
  kind: Fault['kind'];
  declared: string[];
  /** killed / survived (conformance); inconclusive / passed / FAILED (transport). */
  status: 'killed' | 'survived' | 'inconclusive' | 'passed' | 'FAILED';
  /** Rules that pass on the clean sandbox and fail (or stop deviating) with the fault. */
  killedBy: string[];
  killedByDeclared: string[];
  inconclusive: string[];
  flag?: string;
  ok: boolean;
  specs: string[];
  /** The profile's clean run this fault was judged against (`clean@strict-interface`), if not the default. */
  profile?: string;
}

export interface MutationReport {
  generatedAt: string;
  durationSeconds: number;
  selection: string;
  cleanFailures: string[];
  /** The settings profiles some faults run with, each judged against its own clean sandbox. */
  profiles: { name: string; why: string; settings: string }[];
  outcomes: FaultOutcome[];
}

const BROKEN = new Set(['fail', 'unexpected-pass']);

/** Verdicts of a rule that does not hold on a clean participant: a clean run showing one is not a baseline. */
export const NOT_HOLDING: ReadonlySet<string> = new Set([
  ...BROKEN,
  'inconclusive',
  'harness-defect',
  'setup',
]);

export function judgeFault(
  fault: Fault,
  clean: RuleRow[],
  withFault: RuleRow[],
  specs: string[],
): FaultOutcome {
  const before = new Map(clean.map((r) => [r.id, r.verdict]));
  const killedBy = withFault
    .filter((r) => BROKEN.has(r.verdict) && !BROKEN.has(before.get(r.id) ?? 'not-run'))
    .map((r) => r.id);
  const killedByDeclared = killedBy.filter((id) => fault.rules.includes(id));
  const inconclusive = withFault.filter((r) => r.verdict === 'inconclusive').map((r) => r.id);
  const base = {
    fault: fault.name,
    breaks: fault.breaks,
    kind: fault.kind,
    declared: [...fault.rules],
    killedBy,
    killedByDeclared,
    inconclusive,
    specs,
    ...(fault.profile ? { profile: `clean@${fault.profile.name}` } : {}),
  };
  if (fault.kind === 'transport') {
    const expectPass = fault.expect === 'pass';
    if (killedBy.length > 0)
      return { ...base, status: 'FAILED', ok: false, flag: 'a transport fault produced a failed verdict' };
    if (inconclusive.length > 0) {
      return expectPass
        ? { ...base, status: 'inconclusive', ok: false, flag: 'a merely slow target was judged inconclusive' }
        : { ...base, status: 'inconclusive', ok: true };
    }
    return expectPass
      ? { ...base, status: 'passed', ok: true }
      : { ...base, status: 'passed', ok: false, flag: 'the fault went unnoticed' };
  }
  if (killedBy.length === 0) return { ...base, status: 'survived', ok: false };
  if (killedByDeclared.length === 0) {
    return {
      ...base,
      status: 'killed',
      ok: false,
      flag: `caught only by undeclared rules (${killedBy.join(', ')}): the intended check is weak`,
    };
  }
  return { ...base, status: 'killed', ok: true };
}

export function mutationScore(outcomes: readonly FaultOutcome[]): { killed: number; total: number } {
  const conformance = outcomes.filter((o) => o.kind === 'conformance');
  return { killed: conformance.filter((o) => o.ok).length, total: conformance.length };
}

export function renderMutationMarkdown(r: MutationReport): string {
  const { killed, total } = mutationScore(r.outcomes);
  const pct = total === 0 ? 100 : Math.round((killed / total) * 1000) / 10;
  const transport = r.outcomes.filter((o) => o.kind === 'transport');
  const lines = [
    '# Mutation matrix',
    '',
    `Mutation score: **${pct}%** — ${killed} of ${total} conformance faults killed by a declared rule. ` +
      `Transport faults handled as inconclusive/pass: ${transport.filter((o) => o.ok).length} of ${transport.length}.`,
    `Clean sandbox: ${r.cleanFailures.length === 0 ? 'green' : `FAILED on ${r.cleanFailures.join(', ')}`}.`,
    `Specs run per fault: ${r.selection}. Took ${r.durationSeconds} s.`,
    ...(r.profiles.length > 0
      ? [
          '',
          'Some faults need settings for their rules to run; each runs with them and is judged against a clean ' +
            'sandbox started with the same (column "against"):',
          '',
          ...r.profiles.map((p) => `- \`${p.name}\`: ${p.settings} — ${p.why}`),
        ]
      : []),
    '',
    '| fault | what it breaks | verdict | declared rules | caught by | against | note |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const o of r.outcomes) {
    const caught =
      o.kind === 'transport' ? `inconclusive: ${o.inconclusive.length} rules` : o.killedBy.join(', ') || '—';
    lines.push(
      `| ${o.fault} | ${o.breaks} | ${o.ok ? '' : '**'}${o.status}${o.ok ? '' : '**'} | ${o.declared.join(', ') || '—'} | ${caught} | ${o.profile ?? 'clean'} | ${o.flag ?? ''} |`,
    );
  }
  return lines.join('\n') + '\n';
}
