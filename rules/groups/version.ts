import { rule } from './define';

const op = 'version' as const;

export const versionRules = [
  rule(
    'VER-SHAPE',
    op,
    'interface',
    ['@readonly'],
    '2.9',
    'Version response: version (string, req), features (FeaturesDescriptor, req).',
    'the version response carries the version string and the features descriptor',
  ),
  rule(
    'VER-SEMVER',
    op,
    'canton',
    ['@readonly'],
    '9.4',
    'The format and ordering rules of the version string: not shown. (Canton: SemVer 2.0, pre-release allowed.)',
    'the version string is a SemVer version, a pre-release allowed',
  ),
  rule(
    'VER-FEATURES',
    op,
    'interface',
    ['@readonly'],
    '2.9',
    'FeaturesDescriptor lets applications determine whether an endpoint supports the features they need.',
    'every feature of the descriptor is present with a sane value',
  ),
  rule(
    'VER-STABLE',
    op,
    'canton',
    ['@readonly'],
    '9.2',
    'GET /v2/version returns the interface version string and the feature descriptor. (Canton serves both from its configuration: they do not change between reads.)',
    'two reads of the version agree',
  ),
  rule(
    'VER-AUTH-REQUIRED',
    op,
    'interface',
    ['@readonly', '@auth'],
    '4',
    'All three operations require the Authorization header (see section 5).',
    'the version operation requires the Authorization header',
  ),
];
