// The project's ESLint rule (eslint.rules.js): a caught error is used, or a comment says why not.
import { describe, it } from "node:test";

import { RuleTester } from "eslint";

import scorekeeper from "../../eslint.rules.js";

// RuleTester runs each case as a test of node's runner.
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: "module" } });
const silent = [{ messageId: "silent" }];

tester.run("no-silent-catch", scorekeeper.rules["no-silent-catch"], {
  valid: [
    "try { f(); } catch (error) { console.warn('f failed:', error); }",
    "try { f(); } catch (error) { show(error.message); }",
    "try { f(); } catch (error) { if (error.name !== 'AbortError') throw error; }",
    "try { f(); } catch {\n  // No storage (private mode): the page opens at the top.\n}",
    "function g() { try { return f(); } catch { /* expected offline */ return null; } }",
    "p.catch((error) => console.warn('failed:', error));",
    "p.catch(function (error) { report(error); });",
    "p.catch(() => /* no signal: the copy kept before stays */ null);",
    "p.catch(() => {\n  // no signal: the copy kept before stays\n  return null;\n});",
    "p.catch(report);",
    "p.then((value) => use(value), (error) => console.error(error));",
    "p.then((value) => use(value));",
    "p.finally(() => {});",
  ],
  invalid: [
    { code: "try { f(); } catch {}", errors: silent },
    { code: "try { f(); } catch (error) {}", errors: silent },
    { code: "function g() { try { return f(); } catch { return null; } }", errors: silent },
    { code: "function g() { try { return f(); } catch (error) { return null; } }", errors: silent },
    { code: "p.catch(() => {});", errors: silent },
    { code: "p.catch(() => null);", errors: silent },
    { code: "p.catch((error) => null);", errors: silent },
    { code: "p.catch(function () { return false; });", errors: silent },
    { code: "p.then(use, () => undefined);", errors: silent },
    // A comment beside the handler, not in it, says nothing about it.
    { code: "// harmless\np.catch(() => null);", errors: silent },
  ],
});
