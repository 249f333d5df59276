// The project's own ESLint rule (eslint.config.js; tested in tests/js/eslint-rules.test.js).
//
// no-silent-catch: an error caught is never dropped without a word. A `catch` block, or a
// handler given to `.catch(...)` / `.then(..., handler)`, either uses the error it caught (logs
// it, shows it, rethrows it, looks at it) or says in a comment inside it why dropping it is
// right (an expected failure: no signal, no storage, a share sheet closed). ESLint's own no-empty
// lets `catch { return null; }` and `.catch(() => {})` through; this does not.

/** @typedef {import("estree").Node} Node */

/** @type {import("eslint").Rule.RuleModule} */
const noSilentCatch = {
  meta: {
    type: "problem",
    docs: { description: "Require a caught error to be used, or a comment saying why it is dropped" },
    schema: [],
    messages: {
      silent:
        "This {{what}} drops the error it caught without a word: log it (console.warn / console.error), " +
        "tell the player, or say in a comment inside it why the failure is harmless.",
    },
  },
  create(context) {
    const source = context.sourceCode;

    /** Whether the error a catch clause or a handler receives is read anywhere. @param {Node} node */
    const usesError = (node) =>
      source.getDeclaredVariables(node).some((v) => v.defs.some((d) => d.type !== "FunctionName") && v.references.length > 0);
    /** Whether a comment stands inside the node. @param {Node} node */
    const commented = (node) => source.getCommentsInside(node).length > 0;

    /** A rejection's handler: checked when written inline. @param {Node | undefined} handler @param {string} what */
    function checkHandler(handler, what) {
      if (!handler || (handler.type !== "ArrowFunctionExpression" && handler.type !== "FunctionExpression")) return;
      if (usesError(handler) || commented(handler)) return;
      context.report({ node: handler, messageId: "silent", data: { what } });
    }

    return {
      CatchClause(node) {
        if (usesError(node) || commented(node.body)) return;
        context.report({ node, messageId: "silent", data: { what: "catch" } });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== "MemberExpression" || callee.property.type !== "Identifier") return;
        if (callee.property.name === "catch") checkHandler(node.arguments[0], ".catch() handler");
        else if (callee.property.name === "then") checkHandler(node.arguments[1], ".then() rejection handler");
      },
    };
  },
};

export default { meta: { name: "scorekeeper" }, rules: { "no-silent-catch": noSilentCatch } };
