#!/usr/bin/env node
// Builds the Java peer's jar and its classpath with Maven (Java 17); turbo `setup` runs it.
import { ensurePeerBuilt } from './index.mjs';

ensurePeerBuilt({ verbose: true });
