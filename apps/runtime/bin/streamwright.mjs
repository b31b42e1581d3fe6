#!/usr/bin/env node
// The CLI entry: runs the built CLI (apps/runtime/dist). Build first: `pnpm build`.
import('../dist/cli/main.js')
  .then((m) => m.main(process.argv))
  .catch((err) => {
    const notBuilt = err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist');
    console.error(
      notBuilt
        ? `streamwright is not built (${err.message}). Run \`pnpm build\` (or \`npm start\`) at the repository root.`
        : err instanceof Error
          ? err.message
          : err,
    );
    process.exit(1);
  });
