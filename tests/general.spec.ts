// Rules for every operation (interface document §1, §7; Canton's error model, docs/canton-behaviour.md §1.1–1.2):
// JSON answers are served as JSON, every error answer is a JsCantonError whose status agrees with its
// grpcCodeValue (or tapir's 400 text/plain for a body it cannot decode), and no input makes a 5xx.
// Every request here only reads, or is a submission no participant can commit (core/inert.ts): nothing is
// committed, except by GEN-JSON-CONTENT-TYPE-SUBMIT (@writes), which needs an accepted submission.
import { forRule } from '../fixtures';
import {
  test,
  expect,
  PATHS,
  type LedgerClient,
  type LedgerResponse,
  type RawRequest,
  type SubmitRequest,
  type Tokens,
} from '../fixtures';
import { MALFORMED_TOKEN, noAuthReason } from '../fixtures';
import { BAD_INPUT_TABLES, type InputTable } from './general.bad-input';

/** application/json, or a structured +json type, with or without parameters. */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
/** tapir's decode failure: `Invalid value for: body (…)` (or a header), 400 text/plain. */
const TAPIR_DECODE = /^Invalid value for: /;

const isJsonText = (res: LedgerResponse): boolean => res.json !== undefined;

/** One request of a probe table, and whether its input is one the participant may fail to decode. */
interface Probe {
  name: string;
  request: RawRequest;
  /** Undecodable input: tapir's 400 text/plain is an accepted error body. */
  undecodable?: boolean;
}

type Extra = Partial<RawRequest> & { undecodable?: boolean };

const vetting = (name: string, body: unknown, extra: Extra = {}): Probe => {
  const { undecodable, ...request } = extra;
  return { name, undecodable, request: { method: 'POST', path: PATHS.vettingList, body, ...request } };
};
const submit = (name: string, body: unknown, extra: Extra = {}): Probe => {
  const { undecodable, ...request } = extra;
  return { name, undecodable, request: { method: 'POST', path: PATHS.submitTree, body, ...request } };
};

interface ProbeContext {
  valid: SubmitRequest;
  maxPageSize: number | undefined;
  authOn: boolean;
  tokens: Tokens;
  unauthorizedParty: string;
}

/** Requests every participant refuses, per operation: each answer must be a well-formed error. */
async function errorProbes(operation: string, c: ProbeContext): Promise<Probe[]> {
  const unknownUser =
    c.authOn && c.tokens.canMint ? await c.tokens.negativeOrSkip().unknownUser() : undefined;
  const auth = (probes: Probe[]): Probe[] => (c.authOn ? probes : []);
  switch (operation) {
    case 'version':
      // Canton's version operation needs no token; the document's does. Whatever refuses here is judged.
      return [
        { name: 'no token', request: { method: 'GET', path: PATHS.version, token: null } },
        { name: 'malformed token', request: { method: 'GET', path: PATHS.version, token: MALFORMED_TOKEN } },
        ...(unknownUser
          ? [{ name: 'unknown user', request: { method: 'GET', path: PATHS.version, token: unknownUser } }]
          : []),
      ];
    case 'vetting list':
      return [
        vetting('negative pageSize', { pageSize: -1 }),
        ...(c.maxPageSize === undefined
          ? []
          : [vetting('pageSize above the maximum', { pageSize: c.maxPageSize + 1 })]),
        vetting('garbage pageToken', { pageToken: 'INVALID_PAGE_TOKEN' }),
        ...auth([
          vetting('no token', {}, { token: null }),
          vetting('malformed token', {}, { token: MALFORMED_TOKEN }),
          ...(unknownUser ? [vetting('unknown user', {}, { token: unknownUser })] : []),
        ]),
        vetting('malformed JSON', '{', { undecodable: true }),
        vetting('pageSize a string', { pageSize: '5' }, { undecodable: true }),
        vetting('pageSize 2^31', { pageSize: 2 ** 31 }, { undecodable: true }),
        vetting('root array', [], { undecodable: true }),
      ];
    case 'submit': {
      const v = c.valid;
      return [
        submit('empty commandId', { ...v, commandId: '' }),
        submit('empty commands', { ...v, commands: [] }),
        submit('empty actAs', { ...v, actAs: [] }),
        submit('both minimum ledger times', {
          ...v,
          minLedgerTimeAbs: new Date().toISOString(),
          minLedgerTimeRel: { seconds: 1, nanos: 0 },
        }),
        submit('negative deduplication period', {
          ...v,
          deduplicationPeriod: { DeduplicationDuration: { value: { seconds: -1, nanos: 0 } } },
        }),
        submit('malformed commandId', { ...v, commandId: 'a!b' }),
        submit('synchronizerId without a namespace', { ...v, synchronizerId: 'invalidSynchronizerId' }),
        submit('unknown template', {
          ...v,
          commands: v.commands.map((cmd) =>
            'CreateAndExerciseCommand' in cmd
              ? {
                  CreateAndExerciseCommand: {
                    ...(cmd.CreateAndExerciseCommand as Record<string, unknown>),
                    templateId: 'Bad:Template:Id',
                  },
                }
              : cmd,
          ),
        }),
        ...auth([
          submit('no token', v, { token: null }),
          submit('malformed token', v, { token: MALFORMED_TOKEN }),
          submit('actAs without a right', { ...v, actAs: [...v.actAs, c.unauthorizedParty] }),
          ...(unknownUser ? [submit('unknown user', v, { token: unknownUser })] : []),
        ]),
        submit('malformed JSON', '{', { undecodable: true }),
        submit('commandId key missing', { ...v, commandId: undefined }, { undecodable: true }),
        submit('commands a string', { ...v, commands: 'x' }, { undecodable: true }),
        submit('root null', 'null', { undecodable: true }),
      ];
    }
    default:
      throw new Error(`no error probes for ${operation}`);
  }
}

async function send(ledger: LedgerClient, probe: Probe): Promise<LedgerResponse> {
  return ledger.send({ ...probe.request, label: probe.name });
}

test.describe('All operations', () => {
  // ── GEN-JSON-CONTENT-TYPE ────────────────────────────────────────────────────────────────────────────
  for (const operation of ['version', 'vetting list', 'submit']) {
    test(
      ...forRule('GEN-JSON-CONTENT-TYPE', ` — ${operation}`),
      async ({ ledger, commands, target, settings, tokens }) => {
        const ctx: ProbeContext = {
          valid: commands.inertSubmitRequest(),
          maxPageSize: target.limits.maxVettedPackagesPageSize,
          authOn: noAuthReason(settings) === undefined,
          tokens,
          unauthorizedParty: settings.unauthorizedParty,
        };
        const probes: Probe[] = [
          // The successes this operation can give without writing, then its refusals.
          ...(operation === 'version'
            ? [{ name: 'read', request: { method: 'GET', path: PATHS.version } }]
            : []),
          ...(operation === 'vetting list'
            ? [vetting('list everything', {}), vetting('one entry', { pageSize: 1 })]
            : []),
          ...(await errorProbes(operation, ctx)),
        ];
        let judged = 0;
        for (const probe of probes) {
          const res = await send(ledger, probe);
          if (res.status >= 200 && res.status < 300) {
            expect
              .soft(isJsonText(res), `${probe.name}: a ${res.status} success carries a JSON body`)
              .toBe(true);
          }
          if (isJsonText(res) || (res.status >= 200 && res.status < 300)) {
            judged++;
            expect
              .soft(res.contentType, `${probe.name}: the ${res.status} JSON answer's Content-Type`)
              .toMatch(JSON_TYPE);
          }
        }
        expect(judged, 'answers carrying JSON (nothing to judge otherwise)').toBeGreaterThan(0);
      },
    );
  }

  test(...forRule('GEN-JSON-CONTENT-TYPE-SUBMIT'), async ({ ledger, commands }) => {
    const res = await ledger.submitAndWaitForTransactionTree(commands.submitRequest());
    expect(res).toHaveStatus(200);
    expect(isJsonText(res), 'the accepted submission carries a JSON body').toBe(true);
    expect(res.contentType, 'the Content-Type of the accepted submission').toMatch(JSON_TYPE);
  });

  // ── GEN-ERROR-BODY ───────────────────────────────────────────────────────────────────────────────────
  for (const operation of ['version', 'vetting list', 'submit']) {
    test(
      ...forRule('GEN-ERROR-BODY', ` — ${operation}`),
      async ({ ledger, commands, target, settings, tokens }) => {
        const probes = await errorProbes(operation, {
          valid: commands.inertSubmitRequest(),
          maxPageSize: target.limits.maxVettedPackagesPageSize,
          authOn: noAuthReason(settings) === undefined,
          tokens,
          unauthorizedParty: settings.unauthorizedParty,
        });
        let errors = 0;
        for (const probe of probes) {
          const res = await send(ledger, probe);
          // An accepted probe is another rule's business (each refusal has its own rule); only errors are judged.
          if (res.status < 400) continue;
          errors++;
          if (probe.undecodable && !JSON_TYPE.test(res.contentType)) {
            expect
              .soft(res.status, `${probe.name}: an undecodable body's text/plain answer is a 400`)
              .toBe(400);
            expect.soft(res.text, `${probe.name}: tapir's decode failure text`).toMatch(TAPIR_DECODE);
            continue;
          }
          // A JsCantonError (schema, JSON type) whose status is the one Canton derives from grpcCodeValue.
          expect.soft(res, probe.name).toBeCantonError({ of: probe.name });
        }
        test.skip(
          errors === 0,
          `the ${operation} operation refused none of the probes here: no error body to judge`,
        );
      },
    );
  }

  // ── GEN-NO-5XX ───────────────────────────────────────────────────────────────────────────────────────
  for (const table of BAD_INPUT_TABLES) {
    test(...forRule('GEN-NO-5XX', ` — ${table.operation}`), async ({ ledger, commands }) => {
      test.setTimeout(test.info().timeout * 2);
      await sendTable(ledger, table, commands.inertSubmitRequest());
    });
  }
});

async function sendTable(ledger: LedgerClient, table: InputTable, valid: SubmitRequest): Promise<void> {
  const answers: string[] = [];
  for (const row of table.rows) {
    const req = row.request({ valid });
    let res: LedgerResponse;
    try {
      res = await ledger.send({ method: table.method, path: table.path, ...req, label: row.name });
    } catch (e) {
      if (!row.oversized) throw e;
      // Refused before it was read (413 and close, as HTTP servers do with oversized bodies): no 5xx.
      test.info().annotations.push({
        type: 'note',
        description: `${row.name}: the connection closed while the body was sent (refused unread)`,
      });
      answers.push(`${row.name}: closed`);
      continue;
    }
    answers.push(`${row.name}: ${res.status}`);
    expect.soft(res).toBeNo5xx(`${table.operation} — ${row.name}`);
  }
  test.info().annotations.push({ type: 'answers', description: answers.join('; ') });
}
