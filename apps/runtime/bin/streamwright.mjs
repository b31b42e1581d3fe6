#!/usr/bin/env node
// The CLI entry: runs the built CLI (apps/runtime/dist). Build first: `pnpm build`.
import('../dist/cli/main.js')
  .then((m) => m.main(process.argv))
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
