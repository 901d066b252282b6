// The sandbox's own control surface, not part of Canton's API: registered only with SANDBOX_CONTROL=true
// (otherwise 404), under /sandbox/control/. It lets a test change the vetting state while the sandbox runs,
// so "a page requested twice with the same token can return more" can be shown (document §4.2, 4).
//
// Who may call it: what Canton asks of its own vetting change, POST /v2/package-vetting/update
// (PackageManagementServiceAuthorization.updateVettedPackages: RequiredClaim.Admin, community/base/…/auth/
// Authorizer.scala): a token of a user with the ParticipantAdmin right. As on Canton's JSON endpoints the body
// is decoded first (tapir's 400), then the caller is authorized — no token UNAUTHENTICATED 401, a user without
// the right PERMISSION_DENIED 403 (MissingAdminClaim), both redacted — and only then is the request validated.
//
// POST /sandbox/control/vet
//   { "synchronizerId": "<name>::<namespace>", "participantId": "<name>::<namespace>",
//     "packages": [{ "packageId": "<id>", "packageName"?: "<name>", "packageVersion"?: "<version>" }] }
// → 200 with the resulting VettedPackages entry (the listing's shape). The entry and the synchronizer are
// created when new; already vetted packages are kept; topologySerial grows by one when anything changed.
// A package the participant does not know yet needs its name and version; a known one must match them.
//
// POST /sandbox/control/unvet
//   { "synchronizerId": "<name>::<namespace>", "participantId": "<name>::<namespace>", "packageIds": ["<id>"] }
// → 200 with the resulting entry: the packages named are no longer vetted there, topologySerial grows by one
// when anything changed (a Replace with fewer packages, as Canton's unvetting). An entry that does not exist,
// or unvetting that would leave an entry with no package (not modelled), is INVALID_ARGUMENT.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireParticipantAdmin } from '../auth';
import type { SandboxContext } from '../context';
import { invalidArgument } from '../errors';
import { packageIdError, packageNameError } from '../ids';
import { sendJson } from '../reply';
import type { TopologyEntry, VettedPackageJson, VettingTopology } from '../vetting/topology';
import { uidError } from '../vetting/uid';

interface VetBody {
  synchronizerId: string;
  participantId: string;
  packages: { packageId: string; packageName?: string; packageVersion?: string }[];
}

const VET_SCHEMA = {
  type: 'object',
  required: ['synchronizerId', 'participantId', 'packages'],
  properties: {
    synchronizerId: { type: 'string' },
    participantId: { type: 'string' },
    packages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['packageId'],
        properties: {
          packageId: { type: 'string' },
          packageName: { type: 'string' },
          packageVersion: { type: 'string' },
        },
      },
    },
  },
} as const;

interface UnvetBody {
  synchronizerId: string;
  participantId: string;
  packageIds: string[];
}

const UNVET_SCHEMA = {
  type: 'object',
  required: ['synchronizerId', 'participantId', 'packageIds'],
  properties: {
    synchronizerId: { type: 'string' },
    participantId: { type: 'string' },
    packageIds: { type: 'array', items: { type: 'string' } },
  },
} as const;

/** Daml-LF PackageVersion: dot-separated numbers without leading zeros, at most 255 characters. */
const PACKAGE_VERSION = /^(0|[1-9]\d*)(\.(0|[1-9]\d*))*$/;
const MAX_PACKAGES_PER_CALL = 1000;

function vettedPackages(topology: VettingTopology, body: VetBody): VettedPackageJson[] {
  if (body.packages.length === 0 || body.packages.length > MAX_PACKAGES_PER_CALL) {
    throw invalidArgument(`packages must hold between 1 and ${MAX_PACKAGES_PER_CALL} packages`);
  }
  return body.packages.map((p, i) => {
    const idError = packageIdError(p.packageId);
    if (idError !== undefined) throw invalidArgument(`packages[${i}].packageId: ${idError}`);
    const known = topology.packageInfo(p.packageId);
    const name = p.packageName ?? known?.packageName;
    const version = p.packageVersion ?? known?.packageVersion;
    if (name === undefined || version === undefined) {
      throw invalidArgument(`packages[${i}]: a package not known yet needs packageName and packageVersion`);
    }
    const nameError = packageNameError(name);
    if (nameError !== undefined) throw invalidArgument(`packages[${i}].packageName: ${nameError}`);
    if (!PACKAGE_VERSION.test(version) || version.length > 255) {
      throw invalidArgument(
        `packages[${i}].packageVersion: "${version}" is not a package version like 1.0.0`,
      );
    }
    if (known && (known.packageName !== name || known.packageVersion !== version)) {
      throw invalidArgument(
        `packages[${i}]: package ${p.packageId} is ${known.packageName} ${known.packageVersion}, not ${name} ${version}`,
      );
    }
    // Vetted without time bounds, as a plain `vet` change does in Canton.
    const vetted = { packageId: p.packageId, validFromInclusive: null, validUntilExclusive: null };
    return Object.freeze({ ...vetted, packageName: name, packageVersion: version });
  });
}

const entryJson = (entry: TopologyEntry) => ({
  packages: entry.packages,
  participantId: entry.participant.full,
  synchronizerId: entry.synchronizer.full,
  topologySerial: entry.serial,
});

function checkIds(body: { synchronizerId: string; participantId: string }): void {
  for (const field of ['synchronizerId', 'participantId'] as const) {
    const error = uidError(body[field]);
    if (error !== undefined) throw invalidArgument(`${field}: ${error}`);
  }
}

export function registerControlRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  topology: VettingTopology,
): void {
  // After the schema (decoding), before the handler (validation): see the header.
  const preHandler = async (request: FastifyRequest): Promise<void> => {
    requireParticipantAdmin(await ctx.auth.resolve(request));
  };
  app.post(
    '/sandbox/control/unvet',
    { schema: { body: UNVET_SCHEMA }, preHandler },
    async (request, reply) => {
      const body = request.body as UnvetBody;
      checkIds(body);
      if (body.packageIds.length === 0 || body.packageIds.length > MAX_PACKAGES_PER_CALL) {
        throw invalidArgument(`packageIds must hold between 1 and ${MAX_PACKAGES_PER_CALL} package ids`);
      }
      body.packageIds.forEach((id, i) => {
        const idError = packageIdError(id);
        if (idError !== undefined) throw invalidArgument(`packageIds[${i}]: ${idError}`);
      });
      const existing = topology.entry(body.synchronizerId, body.participantId);
      if (!existing)
        throw invalidArgument(`no vetting entry for ${body.participantId} on ${body.synchronizerId}`);
      const ids = new Set(body.packageIds);
      if (existing.packages.every((p) => ids.has(p.packageId))) {
        throw invalidArgument('unvetting every package of an entry is not modelled: keep at least one');
      }
      const entry = topology.unvet(body.synchronizerId, body.participantId, ids)!;
      return Promise.resolve(sendJson(reply, entryJson(entry)));
    },
  );

  app.post('/sandbox/control/vet', { schema: { body: VET_SCHEMA }, preHandler }, async (request, reply) => {
    const body = request.body as VetBody;
    checkIds(body);
    const packages = vettedPackages(topology, body);
    const entry = topology.vet(body.synchronizerId, body.participantId, packages);
    return Promise.resolve(sendJson(reply, entryJson(entry)));
  });
}
