#!/usr/bin/env node
// The operator CLI (`pnpm svc …` at the repository root). A bin rather than a package script, because pnpm
// prints a banner on stdout before every script, and `svc merchant create --json` promises nothing but JSON there.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/svc.ts');
