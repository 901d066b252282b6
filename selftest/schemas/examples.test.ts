// Every schema accepts the bodies Canton sends and rejects one it never sends, and every id grammar holds at its
// boundaries. A negative example must fail for the stated reason (instance path + keyword), not just fail, so a
// broken example cannot pass by accident. Which field carries which type, format, grammar or required set is
// vs-spec.test.ts's to check; that the suite's response checks reject broken bodies, the fault runs'.
/* oxlint-disable typescript/no-unsafe-member-access, typescript/no-unsafe-return, typescript/no-unsafe-assignment --
   the examples are untyped JSON on purpose: negative cases put wrong types into them one field at a time. */

import { expect, test } from '../support/test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import { DEFS_ID, SCHEMA_IDS, SCHEMAS, defRef, validate, type DefName } from '../../schemas';
import { GRAMMARS, type Grammar, type GrammarName } from '../../core/grammars';
import * as ex from './schema-examples';
import { redacted } from '../support/sandbox-kit';

type Id = Parameters<typeof validate>[0];
type Body = Record<string, any>; // oxlint-disable-line typescript/no-explicit-any -- examples are mutated freely

const describeError = (e: ErrorObject): string => `${e.instancePath} ${e.keyword}`;

function expectValid(id: Id, data: unknown, what = JSON.stringify(data)): void {
  expect(validate(id, data).map(describeError), `${what} must validate against ${id}`).toEqual([]);
}

/** Invalid, and for this reason: an error with `keyword` at `path` ('' = the root). */
function expectInvalid(
  id: Id,
  data: unknown,
  path: string,
  keyword: string,
  what = JSON.stringify(data),
): void {
  expect(
    validate(id, data).map(describeError),
    `${what} must fail ${id} with ${keyword} at '${path}'`,
  ).toContain(`${path} ${keyword}`);
}

/** A fresh example with one mutation applied. */
const mutated = (make: () => object, change: (body: Body) => void): Body => {
  const body = make() as Body;
  change(body);
  return body;
};

const repeat = (unit: string, length: number): string =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
/** Every printable ASCII character and a few beyond. */
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).concat([
  '\t',
  '\n',
  'é',
  '€',
]);
const ALNUM = /^[A-Za-z0-9]$/;

/** For a grammar: each extra character in `allowed` is accepted, every other one rejected. */
function expectCharacters(name: DefName, allowed: string, wrap: (c: string) => string): void {
  for (const c of ASCII) {
    if (ALNUM.test(c)) continue;
    if (allowed.includes(c)) expectValid(defRef(name), wrap(c), `${name} with ${JSON.stringify(c)}`);
    else expectInvalid(defRef(name), wrap(c), '', 'pattern', `${name} with ${JSON.stringify(c)}`);
  }
}

test.describe('registry', () => {
  test('every schema file is registered under its stable $id', () => {
    const files = readdirSync(join(__dirname, '..', '..', 'schemas')).filter(
      (f) => f.endsWith('.json') && f !== 'differences.json',
    );
    const ids = SCHEMAS.map((s) => s.$id);
    expect(ids.sort()).toEqual(files.map((f) => `https://ledger-conformance/schemas/${f}`).sort());
    for (const [name, id] of Object.entries(SCHEMA_IDS))
      expect(id).toBe(`https://ledger-conformance/schemas/${name}.json`);
    expect(ids).toContain(DEFS_ID);
  });

  test('every schema is valid JSON Schema 2020-12 (the registry does not check it, to start fast)', () => {
    const strict = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    for (const schema of SCHEMAS) {
      const valid = strict.validateSchema(schema);
      expect(valid ? [] : strict.errors, String(schema.$id)).toEqual([]);
    }
    // And the check can fail: a schema with a wrong keyword value is refused.
    expect(strict.validateSchema({ type: 'strng' })).toBe(false);
  });
});

test.describe('grammars', () => {
  test('LedgerString, PartyIdString, UserIdString: the punctuation of core/grammars.ts and no other character', () => {
    // Their lengths, and each allowed character at the longest, are core/command-factory.test.ts's
    // "<grammar>: boundary values are valid and invalid values are not, per the schema's grammar".
    for (const [name, g] of Object.entries(GRAMMARS) as [GrammarName, Grammar][]) {
      expectCharacters(name, g.punctuation + (g.punctuationSince?.chars ?? ''), (c) => `a${c}b`);
    }
    expectValid(
      defRef('PartyIdString'),
      'Alice',
      'a party without namespace (Canton checks the LF syntax only)',
    );
  });

  test('CantonUid: <identifier>::<namespace>, split at the first ::', () => {
    // A missing or empty part, a forbidden character and an identifier of 186 are core/command-factory.test.ts's
    // "invalid synchronizer ids are not Canton ids".
    const id = defRef('CantonUid');
    expectValid(id, ex.uid('da'));
    expectValid(id, ex.uid('da1'));
    expectValid(
      id,
      `${repeat('i', 185)}::${repeat('n', 68)}`,
      'identifier 185 and namespace 68 (255 in all)',
    );
    expectInvalid(id, `da::${ex.namespace}0`, '', 'pattern', 'namespace of 69');
    expectValid(id, 'a b:c-d_e::1220ab', 'party characters and single colons in the identifier');
    expectValid(id, 'a:::b', "namespace ':b' (the first '::' splits)");
    expectInvalid(id, `${ex.uid('da')}::34-0`, '', 'pattern', 'a physical synchronizer id');
  });

  test('PackageId and PackageName', () => {
    expectValid(defRef('PackageId'), ex.packageId);
    expectInvalid(defRef('PackageId'), `${ex.packageId}0`, '', 'maxLength');
    expectInvalid(defRef('PackageId'), 'pkg.1', '', 'pattern');
    expectValid(defRef('PackageName'), 'model-tests_2');
    expectInvalid(defRef('PackageName'), 'model tests', '', 'pattern');
    expectInvalid(defRef('PackageName'), repeat('n', 256), '', 'maxLength');
  });

  test('ContractId: lowercase hex', () => {
    expectValid(defRef('ContractId'), ex.contractId);
    expectInvalid(defRef('ContractId'), ex.contractId.toUpperCase(), '', 'pattern');
    expectInvalid(defRef('ContractId'), '', '', 'minLength');
  });

  test('template ids: both request forms; responses only <packageId>:Module:Entity', () => {
    const request = defRef('TemplateIdRequest');
    const response = defRef('TemplateIdResponse');
    for (const valid of ['#model-tests:Iou:Iou', `${ex.packageId}:Iou:Iou`, '#pkg:A.B_c.$D:Outer.Inner']) {
      expectValid(request, valid);
    }
    for (const invalid of [
      'Iou:Iou',
      '#pkg:Iou:Iou:Extra',
      '#:Iou:Iou',
      '#pkg:1Mod:Iou',
      '###Bad:x:y',
      'not-a-valid-template-id',
    ]) {
      expectInvalid(request, invalid, '', 'pattern');
    }
    expectValid(response, `${ex.packageId}:Iou:Iou`);
    expectInvalid(response, '#model-tests:Iou:Iou', '', 'pattern');
  });

  test('Timestamp (sent by Canton): UTC Z with 0, 3, 6 or 9 fraction digits', () => {
    const id = defRef('Timestamp');
    for (const digits of [0, 3, 6, 9]) {
      expectValid(id, `2025-01-27T15:30:36${digits ? `.${repeat('4309401234', digits)}` : ''}Z`);
    }
    for (const digits of [1, 2, 4, 5, 7, 8, 10]) {
      expectInvalid(
        id,
        `2025-01-27T15:30:36.${repeat('1', digits)}Z`,
        '',
        'pattern',
        `${digits} fraction digits`,
      );
    }
    expectValid(id, '2024-02-29T00:00:00Z', 'a leap day');
    expectInvalid(id, '2025-02-29T00:00:00Z', '', 'format', 'a day that does not exist');
    expectInvalid(id, '2025-01-27T15:30:36+01:00', '', 'pattern', 'an offset');
    expectInvalid(id, '2025-01-27t15:30:36z', '', 'pattern', 'lower case');
  });

  test('TimestampInput (read by Canton): RFC 3339, 0-9 fraction digits, Z or an offset', () => {
    const id = defRef('TimestampInput');
    for (const digits of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      expectValid(id, `2025-01-27T15:30:36${digits ? `.${repeat('1', digits)}` : ''}Z`);
    }
    expectInvalid(id, '2025-01-27T15:30:36.1234567890Z', '', 'pattern', '10 fraction digits');
    expectValid(id, '2025-01-27T15:30:36+01:00');
    expectValid(id, '2025-01-27t15:30:36z');
    expectInvalid(id, '2025-01-27 15:30:36Z', '', 'pattern', 'a space separator');
    expectInvalid(id, '2025-01-27T15:30:36', '', 'format', 'no zone');
    expectInvalid(id, '2025-13-01T00:00:00Z', '', 'format', 'month 13');
  });

  test('SemVer: releases, pre-releases and build metadata', () => {
    const id = defRef('SemVer');
    for (const v of ['3.4.11', '3.5.1', '3.4.12-SNAPSHOT', '3.6.0-rc.1+build.5', '10.20.30'])
      expectValid(id, v);
    for (const v of ['3.4', '03.4.1', '3.4.1-', 'v3.4.1', '3.4.1-01', ''])
      expectInvalid(id, v, '', 'pattern');
  });

  test('Duration: integer seconds, nanos 0-999999999, unknownFields optional', () => {
    const id = defRef('Duration');
    expectValid(id, { seconds: 75, nanos: 0 });
    expectValid(id, { seconds: 75, nanos: 999999999, unknownFields: { fields: {} } });
    expectInvalid(id, { seconds: 1, nanos: 1000000000 }, '/nanos', 'maximum');
    expectInvalid(id, { seconds: 1, nanos: -1 }, '/nanos', 'minimum');
    expectInvalid(id, { seconds: '75', nanos: 0 }, '/seconds', 'type');
    expectInvalid(id, { seconds: 1.5, nanos: 0 }, '/seconds', 'type');
    expectInvalid(id, { seconds: 75 }, '', 'required');
    expectInvalid(id, { seconds: 75, nanos: 0, unknownFields: {} }, '/unknownFields', 'required');
    expectInvalid(id, '75s', '', 'type', 'the string form (Canton sends an object)');
  });
});

test.describe('version-response', () => {
  test("Canton's defaults validate, as do other releases and added fields", () => {
    expectValid('version-response', ex.versionDefaults());
    expectValid(
      'version-response',
      mutated(ex.versionDefaults, (b) => (b.version = '3.4.11')),
    );
    expectValid(
      'version-response',
      mutated(ex.versionDefaults, (b) => (b.features.newFeature = { supported: true })),
      'an unknown feature (Canton adds fields between versions)',
    );
  });

  test('what Canton never sends is rejected', () => {
    expectInvalid(
      'version-response',
      mutated(ex.versionDefaults, (b) => (b.features.userManagement.maxUsersPageSize = 2 ** 31)),
      '/features/userManagement/maxUsersPageSize',
      'format',
    );
  });
});

test.describe('canton-error', () => {
  test("Canton's error bodies validate: the official example, redacted 401/403, DUPLICATE_COMMAND", () => {
    expectValid('canton-error', ex.invalidArgumentError());
    expectValid('canton-error', redacted(16));
    expectValid('canton-error', redacted(7, { ledger_api_error: 'invalid token' }));
    expectValid('canton-error', ex.duplicateCommandError());
    expectValid(
      'canton-error',
      mutated(ex.invalidArgumentError, (b) => (b.retryInfo = '1 second')),
    );
    expectValid(
      'canton-error',
      mutated(ex.invalidArgumentError, (b) => (b.definiteAnswer = false)),
    );
  });

  test('a malformed error body is rejected', () => {
    expectInvalid(
      'canton-error',
      mutated(ex.invalidArgumentError, (b) => (b.resources = [['a', 'b', 'c']])),
      '/resources/0',
      'maxItems',
    );
  });
});

test.describe('vetting-list-request', () => {
  test('{} and every field validate', () => {
    expectValid('vetting-list-request', {});
    expectValid('vetting-list-request', {
      packageMetadataFilter: { packageIds: [ex.packageId], packageNamePrefixes: ['model-'] },
      topologyStateFilter: { participantIds: [ex.uid('participant1')], synchronizerIds: [ex.uid('da')] },
      pageToken: '',
      pageSize: 0,
    });
  });

  test('a wrong type is rejected', () => {
    expectInvalid('vetting-list-request', { pageSize: 2 ** 31 }, '/pageSize', 'format');
  });
});

test.describe('vetting-list-response', () => {
  test('a page, the last empty page and unknown packages validate', () => {
    expectValid('vetting-list-response', ex.vettingPage());
    expectValid('vetting-list-response', { vettedPackages: [], nextPageToken: '' });
  });

  test('an entry Canton never sends is rejected', () => {
    expectInvalid(
      'vetting-list-response',
      mutated(ex.vettingPage, (b) => (b.vettedPackages[0].participantId = 'participant1')),
      '/vettedPackages/0/participantId',
      'pattern',
    );
  });
});

test.describe('submit-request', () => {
  test('the composite command of the interface document §2.2 validates', () => {
    // What the request may hold (variants, optional fields) is Canton's OpenAPI's: vs-spec.test.ts.
    expectValid('submit-request', ex.submitRequest());
  });

  test('what the interface document forbids is rejected', () => {
    expectInvalid(
      'submit-request',
      mutated(ex.submitRequest, (b) => {
        b.minLedgerTimeAbs = '2025-01-27T15:30:36Z';
        b.minLedgerTimeRel = { seconds: 1, nanos: 0 };
      }),
      '',
      'not',
      'both minimum ledger times',
    );
    expectInvalid(
      'submit-request',
      mutated(
        ex.submitRequest,
        (b) => (b.commands[0].CreateCommand = { templateId: '#m:Iou:Iou', createArguments: {} }),
      ),
      '/commands/0',
      'oneOf',
      'two variants in one command',
    );
  });
});

test.describe('submit-response', () => {
  test('the tree of docs/canton-behaviour.md §4 validates, with 3.5 fields and nulls', () => {
    const r = 'submit-response';
    expectValid(r, ex.treeResponse());
    expectValid(
      r,
      mutated(ex.treeResponse, (b) => (b.transactionTree.traceContext = null)),
    );
    expectValid(
      r,
      mutated(
        ex.treeResponse,
        (b) => (b.transactionTree.eventsById['0'].CreatedTreeEvent.value.contractKeyHash = 'q83v'),
      ),
      'a 3.5 contractKeyHash',
    );
    expectValid(
      r,
      mutated(
        ex.treeResponse,
        (b) =>
          (b.transactionTree.eventsById['1'].ExercisedTreeEvent.value.interfaceId =
            `${ex.packageId}:If:View`),
      ),
    );
    expectValid(r, {}, 'no tree (optional in the document and the OpenAPI)');
  });

  test('a tree Canton never sends is rejected', () => {
    expectInvalid(
      'submit-response',
      mutated(
        ex.treeResponse,
        (b) => (b.transactionTree.eventsById = { first: b.transactionTree.eventsById['0'] }),
      ),
      '/transactionTree/eventsById',
      'propertyNames',
    );
  });
});
