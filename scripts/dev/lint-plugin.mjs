// The house's own lint rule, an oxlint JS plugin (ESLint's rule API) loaded by oxlint.config.mjs:
// `house/layer-calls`: a require() across a layer line, or a require() or import() whose path is computed.
//   oxlint's no-restricted-imports holds import and export declarations and import() of a path written out;
//   a require() it does not see, and a computed path no rule can check against the lines.

/** `require('…')` and `import('…')`: the node of the path, or undefined for any other call. */
function loadedPath(node) {
  if (node.type === 'ImportExpression') return node.source;
  if (node.callee.type === 'Identifier' && node.callee.name === 'require') return node.arguments[0];
  return undefined;
}

const layerCalls = {
  meta: {
    type: 'problem',
    docs: { description: 'a require() across a layer line, or a load whose path is computed' },
    schema: false,
  },
  create(context) {
    const { patterns = [], computed, crossing } = context.options[0] ?? {};
    const lines = patterns.map((p) => new RegExp(p));
    const check = (node) => {
      const path = loadedPath(node);
      if (path === undefined) return;
      if (path.type !== 'Literal' || typeof path.value !== 'string')
        context.report({ node, message: computed });
      else if (node.type !== 'ImportExpression' && lines.some((line) => line.test(path.value)))
        context.report({ node, message: crossing });
    };
    return { CallExpression: check, ImportExpression: check };
  },
};

export default {
  meta: { name: 'house' },
  rules: { 'layer-calls': layerCalls },
};
