#!/usr/bin/env node
// `node registry.mjs fetch`: unpack Apicurio Registry into target/ (the turbo `setup` task).
// `node registry.mjs`: run one in the foreground and print its Confluent-compatible URL.
import { ensureRegistry, startSchemaRegistry } from './index.mjs';

if (process.argv[2] === 'fetch') {
  ensureRegistry({ verbose: true });
} else {
  const registry = await startSchemaRegistry();
  console.log(`schema registry (Confluent-compatible API): ${registry.url}`);
  process.on('SIGINT', () => void registry.stop().then(() => process.exit(0)));
}
