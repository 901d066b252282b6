// GEN-NO-5XX as data: odd inputs per operation, each of which a participant must answer with less than 500
// (Canton: tapir's 400 text/plain for what it cannot decode, a JsCantonError 4xx for what it refuses,
// 404/405 for what it does not serve). Read by tests/general.spec.ts; add a row to add a case.
//
// The submission rows cannot write: each is built from an inert submission (core/inert.ts: its commands lead
// with an exercise of a contract that cannot exist), so even a participant that accepted the odd part would fail
// at interpretation. A row whose odd part alone might be accepted somewhere (a header, a field an older version
// ignores, a text Daml takes as is) also carries an empty commandId — Canton's MISSING_FIELD, checked after
// decoding, the JSON layer and authorization — so a conformant participant refuses it for what the row is about.
import { PATHS, type RawRequest, type SubmitRequest } from '../fixtures';

/** What a row's request is built from at run time. */
export interface InputContext {
  /** A complete, valid but inert submission with fresh ids (never sent as is by this table). */
  valid: SubmitRequest;
}

export interface BadInput {
  name: string;
  /** The request: method and path default to the table's operation; `body` a string is sent byte for byte. */
  request: (ctx: InputContext) => Partial<RawRequest>;
  /**
   * A body large enough that something in front of the participant may refuse it unread: answer 413 and close
   * the connection before the client finished sending it. A connection closed while sending then counts as a
   * refusal, not a 5xx. (Canton itself reads up to 10 MiB: the JSON API's pekko-http maxContentLength is
   * maxInboundMessageSize, by default ServerConfig.defaultMaxInboundMessageSize — HttpService.scala.)
   */
  oversized?: boolean;
}

export interface InputTable {
  operation: string;
  method: string;
  path: string;
  rows: BadInput[];
}

const MIB = 1024 * 1024;

/** `depth` nested arrays: `[[[…]]]`, built as text (a value that deep would overflow JSON.stringify). */
export const deepArrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
/** `depth` nested objects: `{"a":{"a":…{}}}`. */
export const deepObjects = (depth: number): string => '{"a":'.repeat(depth) + '{}' + '}'.repeat(depth);

const json = (v: unknown): string => JSON.stringify(v);
const SLOT = '\u0000slot\u0000';
/** `json({ ...base, [key]: … })` cut where the value goes: the text before it and the text after it. */
const around = (base: object, key: string): [string, string] => {
  const [head = '', tail = ''] = json({ ...base, [key]: SLOT }).split(json(SLOT));
  return [head, tail];
};
/** A JSON text with one field's value given as raw text (numbers JSON.stringify cannot write, deep values). */
const withRaw = (base: object, key: string, raw: string): string => around(base, key).join(raw);
/**
 * `json({ ...base, [key]: 'x'.repeat(length) })`, byte for byte, built as bytes: for 9 MiB the JSON.stringify
 * and the UTF-8 encoding of the text cost a worker CPU per request; this copies bytes.
 */
export const withLongString = (base: object, key: string, length: number): Buffer => {
  const [head, tail] = around(base, key);
  return Buffer.concat([Buffer.from(`${head}"`), Buffer.alloc(length, 'x'), Buffer.from(`"${tail}`)]);
};

/** The malformed and mistyped bodies both POST operations get. */
const bodySyntax: BadInput[] = [
  { name: 'empty body', request: () => ({ body: '' }) },
  { name: 'whitespace body', request: () => ({ body: '   \n\t ' }) },
  { name: 'unclosed object', request: () => ({ body: '{' }) },
  { name: 'missing value', request: () => ({ body: '{"pageSize":}' }) },
  { name: 'single quotes', request: () => ({ body: "{'pageSize':1}" }) },
  { name: 'trailing garbage', request: () => ({ body: '{} trailing' }) },
  { name: 'NaN literal', request: () => ({ body: '{"pageSize":NaN}' }) },
  { name: 'byte order mark', request: () => ({ body: '\ufeff{}' }) },
  {
    name: 'invalid UTF-8',
    request: () => ({ body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) }),
  },
  { name: 'NUL bytes', request: () => ({ body: '\u0000\u0000' }) },
  { name: 'root null', request: () => ({ body: 'null' }) },
  { name: 'root array', request: () => ({ body: '[]' }) },
  { name: 'root string', request: () => ({ body: '"text"' }) },
  { name: 'root number', request: () => ({ body: '42' }) },
  { name: 'root boolean', request: () => ({ body: 'true' }) },
];

/** Content types and headers no client of the document sends. */
const oddHeaders = (body: (ctx: InputContext) => unknown): BadInput[] => [
  { name: 'content type text/plain', request: (c) => ({ body: body(c), contentType: 'text/plain' }) },
  {
    name: 'content type application/xml',
    request: (c) => ({ body: body(c), contentType: 'application/xml' }),
  },
  { name: 'no content type', request: (c) => ({ body: body(c), contentType: null }) },
  {
    name: 'form-encoded body',
    request: () => ({ body: 'pageSize=1&commandId=x', contentType: 'application/x-www-form-urlencoded' }),
  },
  {
    name: 'multipart without boundary',
    request: (c) => ({ body: body(c), contentType: 'multipart/form-data' }),
  },
  { name: 'garbage content type', request: (c) => ({ body: body(c), contentType: ';;;/;' }) },
  {
    name: 'JSON declared as UTF-16',
    request: (c) => ({ body: body(c), contentType: 'application/json; charset=utf-16' }),
  },
  {
    name: 'gzip declared, plain sent',
    request: (c) => ({ body: body(c), headers: { 'content-encoding': 'gzip' } }),
  },
  {
    name: 'Accept application/xml',
    request: (c) => ({ body: body(c), headers: { accept: 'application/xml' } }),
  },
  { name: 'Accept garbage', request: (c) => ({ body: body(c), headers: { accept: '*/;q=x, ;;' } }) },
  {
    name: 'traceparent garbage',
    request: (c) => ({ body: body(c), headers: { traceparent: 'not-a-traceparent' } }),
  },
  {
    name: 'traceparent all zero',
    request: (c) => ({
      body: body(c),
      headers: { traceparent: `00-${'0'.repeat(32)}-${'0'.repeat(16)}-00` },
    }),
  },
  {
    name: 'tracestate 4 KiB',
    request: (c) => ({ body: body(c), headers: { tracestate: `k=${'v'.repeat(4096)}` } }),
  },
  {
    name: 'custom header 6 KiB',
    request: (c) => ({ body: body(c), headers: { 'x-odd': 'x'.repeat(6144) } }),
  },
  {
    name: 'Authorization Basic',
    request: (c) => ({
      body: body(c),
      token: null,
      headers: { authorization: 'Basic Y29uZm9ybWFuY2U6eA==' },
    }),
  },
  {
    name: 'Authorization two bearers',
    request: (c) => ({
      body: body(c),
      token: null,
      headers: { authorization: 'Bearer abc.def.ghi Bearer x' },
    }),
  },
  {
    name: 'Authorization 8 KiB garbage bearer',
    request: (c) => ({
      body: body(c),
      token: null,
      headers: { authorization: `Bearer ${'A'.repeat(8192)}` },
    }),
  },
];

// The operations' paths (core/api-paths.ts); the malformed ones below are written here on purpose.
const { version: VERSION, vettingList: VETTING, submitTree: SUBMIT } = PATHS;

export const VERSION_TABLE: InputTable = {
  operation: 'version',
  method: 'GET',
  path: VERSION,
  rows: [
    { name: 'junk query', request: () => ({ path: `${VERSION}?pageSize=-1&x=%00&y=&&=` }) },
    { name: 'bad percent-encoding in the query', request: () => ({ path: `${VERSION}?x=%zz` }) },
    { name: 'malformed JSON body on GET', request: () => ({ body: '{' }) },
    { name: 'JSON body on GET', request: () => ({ body: '{"pageSize":-1}' }) },
    { name: 'Accept application/xml', request: () => ({ headers: { accept: 'application/xml' } }) },
    { name: 'Accept garbage', request: () => ({ headers: { accept: '*/;q=x, ;;' } }) },
    { name: 'Range header', request: () => ({ headers: { range: 'bytes=999999-1' } }) },
    { name: 'If-None-Match garbage', request: () => ({ headers: { 'if-none-match': '"' } }) },
    { name: 'traceparent garbage', request: () => ({ headers: { traceparent: 'not-a-traceparent' } }) },
    { name: 'custom header 6 KiB', request: () => ({ headers: { 'x-odd': 'x'.repeat(6144) } }) },
    {
      name: 'Authorization Basic',
      request: () => ({ token: null, headers: { authorization: 'Basic eDp5' } }),
    },
    {
      name: 'Authorization empty bearer',
      request: () => ({ token: null, headers: { authorization: 'Bearer ' } }),
    },
    {
      name: 'Authorization 8 KiB garbage bearer',
      request: () => ({ token: null, headers: { authorization: `Bearer ${'A'.repeat(8192)}` } }),
    },
    { name: 'trailing slash', request: () => ({ path: `${VERSION}/` }) },
    { name: 'upper-case path', request: () => ({ path: '/v2/VERSION' }) },
    { name: 'HEAD', request: () => ({ method: 'HEAD' }) },
  ],
};

export const VETTING_TABLE: InputTable = {
  operation: 'vetting list',
  method: 'POST',
  path: VETTING,
  rows: [
    ...bodySyntax,
    { name: 'pageSize a string', request: () => ({ body: json({ pageSize: '5' }) }) },
    { name: 'pageSize a fraction', request: () => ({ body: json({ pageSize: 1.5 }) }) },
    { name: 'pageSize a boolean', request: () => ({ body: json({ pageSize: true }) }) },
    { name: 'pageSize an object', request: () => ({ body: json({ pageSize: {} }) }) },
    { name: 'pageSize 2^31', request: () => ({ body: json({ pageSize: 2 ** 31 }) }) },
    { name: 'pageSize -2^31 - 1', request: () => ({ body: json({ pageSize: -(2 ** 31) - 1 }) }) },
    { name: 'pageSize 1e400', request: () => ({ body: '{"pageSize":1e400}' }) },
    { name: 'pageSize of 40 digits', request: () => ({ body: `{"pageSize":${'9'.repeat(40)}}` }) },
    { name: 'pageSize of 10 000 digits', request: () => ({ body: `{"pageSize":${'9'.repeat(10_000)}}` }) },
    { name: 'pageSize -0.0', request: () => ({ body: '{"pageSize":-0.0}' }) },
    { name: 'pageSize 1e-9', request: () => ({ body: '{"pageSize":1e-9}' }) },
    { name: 'pageSize twice', request: () => ({ body: '{"pageSize":1,"pageSize":-1}' }) },
    { name: 'pageToken a number', request: () => ({ body: json({ pageToken: 123 }) }) },
    { name: 'pageToken an object', request: () => ({ body: json({ pageToken: {} }) }) },
    { name: 'pageToken garbage', request: () => ({ body: json({ pageToken: '!!not base64!!' }) }) },
    { name: 'pageToken base64 of junk', request: () => ({ body: json({ pageToken: 'AAECAwQFBgcICQ==' }) }) },
    { name: 'pageToken 100 KiB', request: () => ({ body: json({ pageToken: 'QUFB'.repeat(25_600) }) }) },
    { name: 'pageToken with NUL', request: () => ({ body: json({ pageToken: 'a\u0000b' }) }) },
    { name: 'pageToken lone surrogate', request: () => ({ body: '{"pageToken":"\\ud800"}' }) },
    {
      name: 'packageMetadataFilter a string',
      request: () => ({ body: json({ packageMetadataFilter: 'x' }) }),
    },
    {
      name: 'packageMetadataFilter an array',
      request: () => ({ body: json({ packageMetadataFilter: [] }) }),
    },
    {
      name: 'packageIds a string',
      request: () => ({ body: json({ packageMetadataFilter: { packageIds: 'x' } }) }),
    },
    {
      name: 'packageIds with a number and null',
      request: () => ({ body: json({ packageMetadataFilter: { packageIds: [1, null] } }) }),
    },
    {
      name: 'packageIds of 20 000 entries',
      request: () => ({
        body: json({
          packageMetadataFilter: { packageIds: Array.from({ length: 20_000 }, (_, i) => `p${i}`) },
        }),
      }),
    },
    {
      name: 'packageNamePrefixes with odd strings',
      request: () => ({
        body: json({
          packageMetadataFilter: {
            packageNamePrefixes: ['', '\u0000', '💥', '\\', '%s%n', 'x'.repeat(100_000)],
          },
        }),
      }),
    },
    { name: 'topologyStateFilter a number', request: () => ({ body: json({ topologyStateFilter: 7 }) }) },
    {
      name: 'topology ids malformed',
      request: () => ({
        body: json({
          topologyStateFilter: { participantIds: ['::', 'a::b::c', '', '\u0000'], synchronizerIds: ['::x'] },
        }),
      }),
    },
    {
      name: 'synchronizerIds a string',
      request: () => ({ body: json({ topologyStateFilter: { synchronizerIds: 'abc' } }) }),
    },
    {
      name: 'all fields null',
      request: () => ({
        body: json({
          pageSize: null,
          pageToken: null,
          packageMetadataFilter: null,
          topologyStateFilter: null,
        }),
      }),
    },
    {
      name: 'unknown field nested 10 000 deep',
      request: () => ({ body: withRaw({}, 'x', deepArrays(10_000)) }),
    },
    {
      name: 'filter nested 5 000 deep',
      request: () => ({ body: withRaw({}, 'packageMetadataFilter', deepObjects(5_000)) }),
    },
    { name: 'unknown field of 1 MiB', request: () => ({ body: withLongString({}, 'x', MIB) }) },
    { name: 'body of 9 MiB', oversized: true, request: () => ({ body: withLongString({}, 'x', 9 * MIB) }) },
    ...oddHeaders(() => ({})),
  ],
};

/** The valid submission with its commandId emptied: refused (MISSING_FIELD) after everything before it ran. */
const refused = (c: InputContext, patch: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...c.valid,
  commandId: '',
  ...patch,
});
/** The commands with the template's CreateAndExercise payload patched; the inert lead stays first. */
const command = (c: InputContext, patch: Record<string, unknown>): unknown[] => {
  const commands = c.valid.commands as { CreateAndExerciseCommand?: Record<string, unknown> }[];
  const at = commands.findIndex((cmd) => cmd.CreateAndExerciseCommand !== undefined);
  return commands.map((cmd, i) =>
    i === at ? { CreateAndExerciseCommand: { ...cmd.CreateAndExerciseCommand, ...patch } } : cmd,
  );
};
/** The inert lead (core/inert.ts) followed by `rest`: a list of odd commands still cannot commit anything. */
const afterLead = (c: InputContext, ...rest: unknown[]): unknown[] => [c.valid.commands[0], ...rest];

export const SUBMIT_TABLE: InputTable = {
  operation: 'submit',
  method: 'POST',
  path: SUBMIT,
  rows: [
    ...bodySyntax,
    // Every row below is refused on its own or rides on `refused`.
    { name: 'commands an object', request: (c) => ({ body: json({ ...c.valid, commands: {} }) }) },
    {
      name: 'commands with null',
      request: (c) => ({ body: json({ ...c.valid, commands: afterLead(c, null) }) }),
    },
    {
      name: 'commands with an empty object',
      request: (c) => ({ body: json({ ...c.valid, commands: afterLead(c, {}) }) }),
    },
    {
      name: 'an unknown command variant',
      request: (c) => ({ body: json({ ...c.valid, commands: afterLead(c, { NoSuchCommand: { x: 1 } }) }) }),
    },
    {
      name: 'CreateAndExerciseCommand null',
      request: (c) => ({
        body: json({ ...c.valid, commands: afterLead(c, { CreateAndExerciseCommand: null }) }),
      }),
    },
    {
      name: 'templateId a number',
      request: (c) => ({ body: json({ ...c.valid, commands: command(c, { templateId: 5 }) }) }),
    },
    {
      name: 'templateId of two parts',
      request: (c) => ({ body: json({ ...c.valid, commands: command(c, { templateId: 'a:b' }) }) }),
    },
    {
      name: 'templateId empty',
      request: (c) => ({ body: json({ ...c.valid, commands: command(c, { templateId: '' }) }) }),
    },
    {
      name: 'templateId of an unknown package',
      request: (c) => ({
        body: json({ ...c.valid, commands: command(c, { templateId: 'Bad:Template:Id' }) }),
      }),
    },
    {
      name: 'templateId of an unknown package name',
      request: (c) => ({
        body: json({ ...c.valid, commands: command(c, { templateId: '#no-such-package:M:T' }) }),
      }),
    },
    {
      name: 'templateId of 10 000 characters',
      request: (c) => ({
        body: json({ ...c.valid, commands: command(c, { templateId: `#${'p'.repeat(10_000)}:M:T` }) }),
      }),
    },
    {
      name: 'createArguments null',
      request: (c) => ({ body: json({ ...c.valid, commands: command(c, { createArguments: null }) }) }),
    },
    {
      name: 'createArguments an array',
      request: (c) => ({ body: json({ ...c.valid, commands: command(c, { createArguments: [] }) }) }),
    },
    {
      name: 'createArguments nested 5 000 deep',
      request: (c) => ({
        body: json({ ...c.valid, commands: command(c, { createArguments: '__DEEP__' }) }).replace(
          '"__DEEP__"',
          deepObjects(5_000),
        ),
      }),
    },
    {
      name: 'choiceArgument nested 10 000 deep',
      request: (c) => ({
        body: json({ ...c.valid, commands: command(c, { choiceArgument: '__DEEP__' }) }).replace(
          '"__DEEP__"',
          deepArrays(10_000),
        ),
      }),
    },
    {
      name: 'a record field of 1e400',
      request: (c) => ({
        body: json(refused(c, { commands: command(c, { createArguments: '__NUM__' }) })).replace(
          '"__NUM__"',
          '{"amount":1e400}',
        ),
      }),
    },
    {
      name: 'a record field of 1 MiB with control characters',
      request: (c) => ({
        body: json(
          refused(c, {
            commands: command(c, { createArguments: { label: `\u0000\u0007${'x'.repeat(MIB)}` } }),
          }),
        ),
      }),
    },
    { name: 'commandId a number', request: (c) => ({ body: json({ ...c.valid, commandId: 123 }) }) },
    { name: 'commandId null', request: (c) => ({ body: json({ ...c.valid, commandId: null }) }) },
    {
      name: 'commandId of 300 characters',
      request: (c) => ({ body: json({ ...c.valid, commandId: 'c'.repeat(300) }) }),
    },
    { name: 'commandId with NUL', request: (c) => ({ body: json({ ...c.valid, commandId: 'a\u0000b' }) }) },
    {
      name: 'commandId lone surrogate',
      request: (c) => ({ body: withRaw({ ...c.valid }, 'commandId', '"\\udc00"') }),
    },
    { name: 'actAs a string', request: (c) => ({ body: json({ ...c.valid, actAs: c.valid.actAs[0] }) }) },
    { name: 'actAs with a number', request: (c) => ({ body: json({ ...c.valid, actAs: [123] }) }) },
    { name: 'actAs with an empty string', request: (c) => ({ body: json({ ...c.valid, actAs: [''] }) }) },
    { name: 'actAs with a NUL', request: (c) => ({ body: json({ ...c.valid, actAs: ['a\u0000'] }) }) },
    { name: 'readAs a string', request: (c) => ({ body: json({ ...c.valid, readAs: 'x' }) }) },
    {
      name: 'readAs with a malformed party',
      request: (c) => ({ body: json({ ...c.valid, readAs: ['bad!party'] }) }),
    },
    { name: 'userId a number', request: (c) => ({ body: json({ ...c.valid, userId: 1 }) }) },
    { name: 'workflowId malformed', request: (c) => ({ body: json({ ...c.valid, workflowId: 'a!b' }) }) },
    { name: 'submissionId malformed', request: (c) => ({ body: json({ ...c.valid, submissionId: 'a!b' }) }) },
    { name: 'synchronizerId "::"', request: (c) => ({ body: json({ ...c.valid, synchronizerId: '::' }) }) },
    {
      name: 'deduplicationPeriod a string',
      request: (c) => ({ body: json({ ...c.valid, deduplicationPeriod: 'x' }) }),
    },
    {
      name: 'deduplicationPeriod of an unknown variant',
      request: (c) => ({ body: json({ ...c.valid, deduplicationPeriod: { NoSuchPeriod: {} } }) }),
    },
    {
      name: 'deduplication seconds a string',
      request: (c) => ({
        body: json({
          ...c.valid,
          deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 'abc', nanos: 0 } } },
        }),
      }),
    },
    {
      name: 'deduplication nanos not an int32',
      request: (c) => ({
        body: json({
          ...c.valid,
          deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 1, nanos: 1e10 } } },
        }),
      }),
    },
    {
      name: 'deduplication seconds 1e400',
      request: (c) => ({
        body: json({
          ...c.valid,
          deduplicationPeriod: { DeduplicationDuration: { value: '__D__' } },
        }).replace('"__D__"', '{"seconds":1e400,"nanos":0}'),
      }),
    },
    {
      name: 'deduplication seconds negative',
      request: (c) => ({
        body: json({
          ...c.valid,
          deduplicationPeriod: { DeduplicationDuration: { value: { seconds: -1, nanos: 0 } } },
        }),
      }),
    },
    {
      name: 'minLedgerTimeAbs not a time',
      request: (c) => ({ body: json({ ...c.valid, minLedgerTimeAbs: 'not-a-time' }) }),
    },
    {
      name: 'minLedgerTimeAbs out of range',
      request: (c) => ({ body: json({ ...c.valid, minLedgerTimeAbs: '9999-99-99T99:99:99Z' }) }),
    },
    {
      name: 'minLedgerTimeAbs a number',
      request: (c) => ({ body: json({ ...c.valid, minLedgerTimeAbs: 123 }) }),
    },
    {
      name: 'minLedgerTimeRel a string',
      request: (c) => ({ body: json({ ...c.valid, minLedgerTimeRel: 'x' }) }),
    },
    {
      name: 'both minimum ledger times',
      request: (c) => ({
        body: json({
          ...c.valid,
          minLedgerTimeAbs: new Date().toISOString(),
          minLedgerTimeRel: { seconds: 1, nanos: 0 },
        }),
      }),
    },
    { name: 'tapsMaxPasses 2^31', request: (c) => ({ body: json(refused(c, { tapsMaxPasses: 2 ** 31 })) }) },
    { name: 'tapsMaxPasses a string', request: (c) => ({ body: json(refused(c, { tapsMaxPasses: '3' })) }) },
    { name: 'tapsMaxPasses negative', request: (c) => ({ body: json(refused(c, { tapsMaxPasses: -1 })) }) },
    {
      name: 'disclosedContracts malformed',
      request: (c) => ({
        body: json(
          refused(c, {
            disclosedContracts: [
              { createdEventBlob: '!!!', templateId: 'a', contractId: 'zz', synchronizerId: '::' },
            ],
          }),
        ),
      }),
    },
    {
      name: 'prefetchContractKeys malformed',
      request: (c) => ({
        body: json(refused(c, { prefetchContractKeys: [{ templateId: 5, contractKey: null }] })),
      }),
    },
    {
      name: 'packageIdSelectionPreference malformed',
      request: (c) => ({ body: json(refused(c, { packageIdSelectionPreference: ['!!!', ''] })) }),
    },
    {
      name: 'unknown field nested 10 000 deep',
      request: (c) => ({ body: withRaw(refused(c), 'x', deepArrays(10_000)) }),
    },
    {
      name: 'body of 9 MiB',
      oversized: true,
      request: (c) => ({ body: withLongString(refused(c), 'x', 9 * MIB) }),
    },
    ...oddHeaders((c) => refused(c)),
  ],
};

/** Paths the document does not name, and methods its paths do not take. */
export const UNKNOWN_TABLE: InputTable = {
  operation: 'unknown paths and methods',
  method: 'GET',
  path: '/v2/no-such-operation',
  rows: [
    { name: 'GET an unknown path', request: () => ({}) },
    { name: 'POST an unknown path', request: () => ({ method: 'POST', body: '{}' }) },
    { name: 'GET /', request: () => ({ path: '/' }) },
    { name: 'GET /v2', request: () => ({ path: '/v2' }) },
    { name: 'GET /v3/version', request: () => ({ path: '/v3/version' }) },
    { name: 'GET //v2/version', request: () => ({ path: `/${VERSION}` }) },
    { name: 'encoded dot segments', request: () => ({ path: `/v2/%2e%2e${VERSION}` }) },
    { name: 'encoded NUL in the path', request: () => ({ path: `${VERSION}%00` }) },
    { name: 'bad percent-encoding in the path', request: () => ({ path: '/v2/%zz' }) },
    { name: 'a path of 6 000 characters', request: () => ({ path: `/v2/${'a'.repeat(6000)}` }) },
    {
      name: 'a path below an operation',
      request: () => ({ method: 'POST', path: `${VETTING}/extra`, body: '{}' }),
    },
    { name: 'GET the vetting list', request: () => ({ path: VETTING }) },
    { name: 'PUT the vetting list', request: () => ({ method: 'PUT', path: VETTING, body: '{}' }) },
    { name: 'DELETE the vetting list', request: () => ({ method: 'DELETE', path: VETTING }) },
    { name: 'HEAD the vetting list', request: () => ({ method: 'HEAD', path: VETTING }) },
    { name: 'GET the submission', request: () => ({ path: SUBMIT }) },
    { name: 'PATCH the submission', request: () => ({ method: 'PATCH', path: SUBMIT, body: '{}' }) },
    { name: 'POST the version', request: () => ({ method: 'POST', path: VERSION, body: '{}' }) },
    { name: 'PUT the version', request: () => ({ method: 'PUT', path: VERSION, body: '{}' }) },
    { name: 'DELETE the version', request: () => ({ method: 'DELETE', path: VERSION }) },
    { name: 'OPTIONS the version', request: () => ({ method: 'OPTIONS', path: VERSION }) },
  ],
};

export const BAD_INPUT_TABLES: InputTable[] = [VERSION_TABLE, VETTING_TABLE, SUBMIT_TABLE, UNKNOWN_TABLE];
