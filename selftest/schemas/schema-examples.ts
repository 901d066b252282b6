// Example bodies for the schema self-tests, written after docs/canton-behaviour.md (version defaults §3, error
// bodies §1.1/§1.4, tree shape §4, vetting response §2). Builders return fresh objects so a test can
// mutate one field without touching the others.

export const hex64 = (seed: string): string => seed.repeat(64).slice(0, 64);
export const namespace = `1220${hex64('ab12')}`;
export const uid = (identifier: string): string => `${identifier}::${namespace}`;
export const packageId = hex64('19b9fc');
export const contractId = `00${hex64('7f3e')}ca10${namespace}`;
export const updateId = `1220${hex64('8230390f')}`;

/** GET /v2/version with Canton's defaults (the Splice LocalNet 3.4.12-SNAPSHOT example). */
export const versionDefaults = () => ({
  version: '3.4.12-SNAPSHOT',
  features: {
    experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
    userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
    partyManagement: { maxPartiesPageSize: 10000 },
    offsetCheckpoint: {
      maxOffsetCheckpointEmissionDelay: { seconds: 75, nanos: 0, unknownFields: { fields: {} } },
    },
    packageFeature: { maxVettedPackagesPageSize: 100 },
  },
});

/** The official example of a JSON Ledger API error (json-api/index.rst): every key, nulls kept. */
export const invalidArgumentError = () => ({
  code: 'INVALID_ARGUMENT',
  cause: 'The submitted request has invalid arguments: Unknown template id',
  correlationId: null,
  traceId: '1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60',
  context: {
    category: '8',
    definite_answer: 'false',
    participant: 'participant1',
    tid: '1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60',
  },
  resources: [],
  errorCategory: 8,
  grpcCodeValue: 3,
  retryInfo: null,
  definiteAnswer: null,
});

/** DUPLICATE_COMMAND (§1.4 e): 409, completion_offset in context, a resource decoded from gRPC. */
export const duplicateCommandError = () => ({
  code: 'DUPLICATE_COMMAND',
  cause: 'Command submission already exists.',
  correlationId: null,
  traceId: '0af7651916cd43dd8448eb211c80319c',
  context: { completion_offset: '17', accepted: 'true', definite_answer: 'true', category: '10' },
  resources: [['ErrorResource(COMMAND_ID)', 'cmd-1']],
  errorCategory: 10,
  grpcCodeValue: 6,
  retryInfo: null,
  definiteAnswer: null,
});

export const createdEvent = () => ({
  offset: 18,
  nodeId: 0,
  contractId,
  templateId: `${packageId}:Iou:Iou`,
  contractKey: null,
  createArgument: { issuer: uid('Alice'), owner: uid('Alice'), currency: 'USD', amount: '999.9900000000' },
  createdEventBlob: '',
  interfaceViews: [],
  witnessParties: [uid('Alice')],
  signatories: [uid('Alice')],
  observers: [],
  createdAt: '2025-01-27T15:30:36.430940Z',
  packageName: 'model-tests',
  representativePackageId: packageId,
  acsDelta: true,
});

export const exercisedEvent = () => ({
  offset: 18,
  nodeId: 1,
  contractId,
  templateId: `${packageId}:Iou:Iou`,
  interfaceId: null,
  choice: 'Iou_Transfer',
  choiceArgument: { newOwner: uid('Bob') },
  actingParties: [uid('Alice')],
  consuming: true,
  witnessParties: [uid('Alice')],
  lastDescendantNodeId: 1,
  exerciseResult: `00${hex64('c0ffee')}`,
  packageName: 'model-tests',
  implementedInterfaces: [],
  acsDelta: true,
});

/** A 200 of submit-and-wait-for-transaction-tree shaped as in §4 (no rootNodeIds). */
export const treeResponse = () => ({
  transactionTree: {
    updateId,
    commandId: 'cmd-1',
    workflowId: '',
    effectiveAt: '2025-01-27T15:30:36.430Z',
    offset: 18,
    eventsById: {
      '0': { CreatedTreeEvent: { value: createdEvent() } },
      '1': { ExercisedTreeEvent: { value: exercisedEvent() } },
    },
    synchronizerId: uid('da1'),
    traceContext: {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      tracestate: null,
    },
    recordTime: '1970-01-01T00:00:00Z',
  },
});

/** A vetting page as in §2: name and version known, validity unbounded (null). */
export const vettingPage = () => ({
  vettedPackages: [
    {
      packages: [
        {
          packageId,
          validFromInclusive: '2025-01-27T15:30:36Z',
          validUntilExclusive: null,
          packageName: 'model-tests',
          packageVersion: '1.0.0',
        },
        {
          packageId: hex64('5e'),
          validFromInclusive: null,
          validUntilExclusive: null,
          packageName: '',
          packageVersion: '',
        },
      ],
      participantId: uid('participant1'),
      synchronizerId: uid('da'),
      topologySerial: 3,
    },
  ],
  nextPageToken: 'CgZkYTo6MTIyMBIOcGFydGljaXBhbnQxOjo=',
});

/** A valid composite command: one CreateAndExerciseCommand, as §2.2 shows. */
export const submitRequest = () => ({
  commands: [
    {
      CreateAndExerciseCommand: {
        templateId: '#model-tests:Iou:Iou',
        createArguments: { issuer: uid('Alice'), owner: uid('Alice'), currency: 'USD', amount: '1.0' },
        choice: 'Iou_Transfer',
        choiceArgument: { newOwner: uid('Bob') },
      },
    },
  ],
  commandId: 'run-1/SUB-BASIC/1',
  actAs: [uid('Alice')],
});
