#!/usr/bin/env node
// Builds the oracle jar and its classpath with Maven (Java 17). Serialised with flock so that
// concurrent test workers never run two Maven builds over the same target/ folder.
import { ensureOracleBuilt } from './index.mjs';

ensureOracleBuilt({ verbose: true });
