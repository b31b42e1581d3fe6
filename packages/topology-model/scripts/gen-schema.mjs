// Writes docs/topology.schema.json from the zod schema (via the built package).
// Run: pnpm --filter @streamwright/topology-model gen:schema
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { topologyJsonSchemaText } from '../dist/index.js';

const target = fileURLToPath(new URL('../../../docs/topology.schema.json', import.meta.url));
writeFileSync(target, topologyJsonSchemaText());
console.log(`wrote ${target}`);
