// The house's own lint rules, an oxlint JS plugin (ESLint's rule API) loaded by oxlint.config.mjs:
// - `house/layer-calls`: a require() across a layer line, or a require() or import() whose path is computed.
//   oxlint's no-restricted-imports holds import and export declarations and import() of a path written out;
//   a require() it does not see, and a computed path no rule can check against the lines.
// - `house/no-octal` and `house/no-dupe-args`: ESLint's no-octal (a legacy octal literal, `017`) and no-dupe-args
//   (a parameter named twice), which oxlint does not implement. TypeScript and ES modules refuse both already;
//   a CommonJS preload, in sloppy mode, would take them.

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

const noOctal = {
  meta: { type: 'problem', docs: { description: "ESLint's no-octal: a legacy octal literal" }, schema: [] },
  create(context) {
    return {
      Literal(node) {
        if (typeof node.value === 'number' && /^0\d/.test(node.raw ?? ''))
          context.report({ node, message: 'Octal literals should not be used.' });
      },
    };
  },
};

const noDupeArgs = {
  meta: {
    type: 'problem',
    docs: { description: "ESLint's no-dupe-args: a parameter named twice" },
    schema: [],
  },
  create(context) {
    const check = (node) => {
      const seen = new Set();
      for (const param of node.params) {
        if (param.type !== 'Identifier') continue;
        if (seen.has(param.name))
          context.report({ node: param, message: `Duplicate param '${param.name}'.` });
        seen.add(param.name);
      }
    };
    return { FunctionDeclaration: check, FunctionExpression: check };
  },
};

export default {
  meta: { name: 'house' },
  rules: { 'layer-calls': layerCalls, 'no-octal': noOctal, 'no-dupe-args': noDupeArgs },
};
