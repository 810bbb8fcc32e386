import { describe, expect, it } from 'vitest';
import { nestedScript } from '../../../../lib/engine/analysis/step-shell.js';

describe('nestedScript: the script a command runs in a nested shell', () => {
  it('reads `bash -c`, `sh -ec`, options before `-c`, and shells run by docker, kubectl, ssh or su', () => {
    expect(nestedScript(`bash -c "a && b"`)).toEqual({ script: 'a && b', options: [] });
    expect(nestedScript(`sh -ec 'a; b'`)).toEqual({ script: 'a; b', options: ['-e'] });
    expect(nestedScript(`bash --noprofile -o pipefail -c 'a | b'`)).toEqual({ script: 'a | b', options: ['-o', 'pipefail'] });
    expect(nestedScript(`docker run --rm -v "$PWD:/w" -w /w ubuntu:24.04 bash -c "curl -o f URL && sha256sum -c f.sha256"`)?.script).toBe('curl -o f URL && sha256sum -c f.sha256');
    expect(nestedScript(`kubectl exec pod -- /bin/sh -c 'tar xf f'`)?.script).toBe('tar xf f');
    expect(nestedScript(`sudo su builder -c 'make install'`)).toEqual({ script: 'make install', options: [] });
  });

  it('is null for a shell that runs a file, a host with no shell, or a shell word that is not a program', () => {
    expect(nestedScript('bash install.sh')).toBeNull();
    expect(nestedScript('docker run --rm alpine sha256sum -c f.sha256')).toBeNull();
    expect(nestedScript('echo bash -c "a"')).toBeNull();
    expect(nestedScript('docker run -v /opt/x:/bin/sh alpine make')).toBeNull();
  });
});
