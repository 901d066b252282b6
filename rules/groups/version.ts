import { rule } from './define';

const op = 'version' as const;

export const versionRules = [
  rule({
    id: 'VER-SHAPE',
    operation: op,
    level: 'interface',
    tags: ['@readonly'],
    clause: {
      section: '2.9',
      text: 'Version response: version (string, req), features (FeaturesDescriptor, req).',
    },
    title: 'the version response carries the version string and the features descriptor',
  }),
  rule({
    id: 'VER-SEMVER',
    operation: op,
    level: 'canton',
    tags: ['@readonly'],
    clause: {
      section: '9.4',
      text: 'The format and ordering rules of the version string: not shown. (Canton: SemVer 2.0, pre-release allowed.)',
    },
    title: 'the version string is a SemVer version, a pre-release allowed',
  }),
  rule({
    id: 'VER-FEATURES',
    operation: op,
    level: 'interface',
    tags: ['@readonly'],
    clause: {
      section: '2.9',
      text: 'FeaturesDescriptor lets applications determine whether an endpoint supports the features they need.',
    },
    title: 'every feature of the descriptor is present with a sane value',
  }),
  rule({
    id: 'VER-STABLE',
    operation: op,
    level: 'canton',
    tags: ['@readonly'],
    clause: {
      section: '9.2',
      text: 'GET /v2/version returns the interface version string and the feature descriptor. (Canton serves both from its configuration: they do not change between reads.)',
    },
    title: 'two reads of the version agree',
  }),
  rule({
    id: 'VER-AUTH-REQUIRED',
    operation: op,
    level: 'interface',
    tags: ['@readonly', '@auth'],
    clause: { section: '4', text: 'All three operations require the Authorization header (see section 5).' },
    title: 'the version operation requires the Authorization header',
    needs: ['user-token'],
  }),
];
