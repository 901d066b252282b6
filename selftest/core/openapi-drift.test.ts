// The participant's own API description, compared: the sandbox serves the description of its release (rebuilt
// from spec/), the comparison with the document reports exactly the known differences of that release, the
// comparison with the previous description reports exactly what changed, with the rules that read each field.
// In-process (inject). Through real runs (selftest/history/intermittent.test.ts): the description kept beside the
// history and read back (the first night none, the same again no change, another target its own), the webhook
// line, and the upgrade's changes with the rules reading each field, the description fault's among them.
import { expect, test } from '../support/test';
import { withSandbox } from '../support/sandbox-kit';
import { extractDescription } from '../../spec/extract';
import type { DescriptionFacts, SpecFacts } from '../../spec/facts';
import { againstDocument, sinceLast, type DriftLine } from '../../core/openapi-drift';
import { differenceKey, type DifferenceKind } from '../../core/schema-compare';
import { BODY_READERS, FIELD_READERS } from '../../rules/fields';
import { describeDrift } from '../../reporters/openapi-drift';
import { compareDescriptions, descriptionsMarkdown } from '../../reporters/openapi-drift-compare';
import { RULES } from '../../rules/catalogue';
import listed from '../../schemas/differences.json';
import facts3411 from '../../spec/canton-3.4.11.json';
import facts3510 from '../../spec/canton-3.5.10.json';

type Served = { text: string; type: string; facts: DescriptionFacts };
const cache = new Map<string, Promise<Served>>();

/** What a sandbox with these settings serves at GET /docs/openapi (each sandbox built once per worker). */
function served(env: Record<string, string>): Promise<Served> {
  const key = JSON.stringify(env);
  if (!cache.has(key)) cache.set(key, serve(env));
  return cache.get(key)!;
}

async function serve(env: Record<string, string>): Promise<Served> {
  return withSandbox(env, async (app) => {
    const res = await app.inject({ method: 'GET', url: '/docs/openapi' });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    return { text: res.body, type: String(res.headers['content-type']), facts: extractDescription(res.body) };
  });
}

const line = (l: DriftLine) => `${l.operation} ${l.at}: ${l.before} → ${l.after}`;

/** What schemas/differences.json lists for a release, in the kinds a description can state. */
function listedFor(version: string): string[] {
  const compared = new Set([
    'property-missing',
    'property-extra',
    'required-added',
    'required-dropped',
    'type',
  ]);
  const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);
  return listed.differences
    .filter((e) => e.versions.includes(version) && compared.has(e.kind))
    .flatMap((e) =>
      list(e.at).flatMap((at) =>
        list(e.detail).map((detail) => differenceKey({ at, kind: e.kind as DifferenceKind, detail })),
      ),
    );
}

for (const [version, shipped] of [
  ['3.4.11', facts3411],
  ['3.5.10', facts3510],
] as const) {
  test(`the sandbox as ${version} serves its release's description, read back as spec/ holds it`, async () => {
    const { type, facts } = await served({ SANDBOX_VERSION: version });
    expect(type).toBe('text/plain; charset=UTF-8');
    const spec = shipped as unknown as SpecFacts;
    expect(facts.operations).toEqual(spec.operations);
    expect(facts.components).toEqual(spec.components);
  });

  test(`against the document, the sandbox as ${version} shows the known differences of ${version} and nothing else`, async () => {
    const lines = againstDocument((await served({ SANDBOX_VERSION: version })).facts);
    const unknown = lines.filter((l) => !l.known).map(line);
    expect(unknown, 'differences schemas/differences.json does not list').toEqual([]);
    const routes = lines.filter((l) => l.at === '(path)').map(line);
    expect(routes).toEqual(
      version === '3.4.11'
        ? ['vetting-list (path): POST /v2/package-vetting/list → GET /v2/package-vetting']
        : [],
    );
    // One line per listed difference (a required set lists several fields, each its own line).
    expect(lines.filter((l) => l.at !== '(path)').length).toBe(listedFor(version).length);
  });
}

test('3.4.11 then 3.5.x: every change with the rules reading it', async () => {
  const [older, newer] = [
    (await served({ SANDBOX_VERSION: '3.4.11' })).facts,
    (await served({ SANDBOX_VERSION: '3.5.2' })).facts,
  ];
  const changes = sinceLast(older, newer);
  const byLine = new Map(changes.map((l) => [line(l), l]));
  const path = byLine.get('vetting-list (path): GET /v2/package-vetting → POST /v2/package-vetting/list');
  expect(path?.rules).toEqual(expect.arrayContaining(['VET-SHAPE', 'VET-PAGE-ORDER']));
  expect(byLine.get('version GetLedgerApiVersionResponse.version: optional → required')?.rules).toContain(
    'VER-SHAPE',
  );
  // The mirror of the document comparison: what 3.4.11 says otherwise, 3.5.x says as the document does.
  expect(changes.length).toBe(againstDocument(older).length - againstDocument(newer).length);
});

test('the field map names catalogued rules and fields the published descriptions have', () => {
  const ids = new Set(RULES.map((r) => r.id));
  const named = [...Object.values(FIELD_READERS).flat(), ...BODY_READERS.flatMap((r) => r.rules)];
  expect(named.filter((id) => !ids.has(id))).toEqual([]);
  const specs = [facts3411, facts3510] as unknown as SpecFacts[];
  const exists = (field: string) => {
    const [component = '', property] = field.split('.');
    return specs.some(
      (s) => s.components[component] && (!property || s.components[component].properties?.[property]),
    );
  };
  expect(Object.keys(FIELD_READERS).filter((f) => !exists(f))).toEqual([]);
});

test('compare puts two descriptions side by side', async () => {
  const [older, newer] = [
    (await served({ SANDBOX_VERSION: '3.4.11' })).facts,
    (await served({ SANDBOX_FAULTS: 'description-drift' })).facts,
  ];
  const report = (facts: DescriptionFacts, previous?: DescriptionFacts) =>
    describeDrift({ state: 'read', line: 'read', facts }, previous);
  const runs = [
    { description: report(older) },
    { description: report(newer) },
    {
      description: describeDrift(
        { state: 'not-served', line: 'not served (GET /docs/openapi answered 404)' },
        undefined,
      ),
    },
  ];
  const md = descriptionsMarkdown(compareDescriptions(runs)).join('\n');
  expect(md).toContain('3. not served (GET /docs/openapi answered 404)');
  expect(md).toContain(
    '- vetting-list (path): GET /v2/package-vetting → POST /v2/package-vetting/query — rules: VET-SHAPE',
  );
  expect(md).toContain(
    '- submit-tree JsTransactionTree.offset: integer (int64) → absent — rules: SUB-OFFSETS-INCREASE, SUB-SHAPE',
  );
  expect(md).toContain('Run 1 → run 3: not comparable (a run read no description).');
});
