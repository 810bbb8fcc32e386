import { defineWorkflowRule } from '../rule.js';

/**
 * Reported by the engine itself (lib/engine/scan.ts) when a scan stops at one of its limits: files, bytes
 * per file, bytes per scan, findings, engine time. A rule of the catalog so that it can be toggled like any
 * other; it visits nothing.
 */
export default defineWorkflowRule({
  meta: {
    id: 'scan-limit-reached',
    category: 'BEST-PRAC-3',
    title: 'Scan stopped at a limit',
    severity: 'INFO',
    surface: 'workflow',
    description:
      'The repository exceeds a limit of the scan (files, bytes per file, bytes in all, findings, or engine time), so part of it was not checked; the description names the limit and what was skipped.',
    recommendation:
      'Raise the limit that was reached (the service: its SCAN_MAX_* settings; the CLI: --max-files, --max-file-bytes, --max-bytes, --max-findings, --max-engine-ms), or scan the skipped files separately.',
  },
  create: () => ({}),
});
