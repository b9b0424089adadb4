#!/usr/bin/env node
// The package's command: `npx zdr-embed audit <url>` (bin/audit.mjs).
import { audit } from './audit.mjs';

const [command, ...rest] = process.argv.slice(2);
if (command === 'audit') {
  process.exitCode = await audit(rest);
} else {
  process.stderr.write(`usage: npx zdr-embed audit <url> [--json] [--data FILE] [--service ORIGIN] [--wait MS] [--browser PATH]\n${command ? `unknown command ${command}\n` : ''}`);
  process.exitCode = 2;
}
