#!/usr/bin/env node
// The `sjd` command: the compiled CLI (npm ci builds it).
import('../dist/src/cli/main.js');
