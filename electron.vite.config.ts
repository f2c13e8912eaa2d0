import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import { resolve } from 'node:path'
import type { Plugin } from 'vite'
import { contentSecurityPolicy } from './src/shared/csp'

const alias = { '@shared': resolve(__dirname, 'src/shared') }

/** Writes the strict CSP into index.html as a meta tag (serve rewrites it for its socket). */
function cspMeta(): Plugin {
  return {
    name: 'hotaru-csp-meta',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy([], { meta: true }) },
        injectTo: 'head-prepend',
      },
    ],
  }
}

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          // The snapshot engine's worker thread, found next to index.js at run time (worker-entry.ts).
          'snapshot-worker': resolve(__dirname, 'src/main/core/snapshot/worker.ts'),
          // The project's file watch, in its own thread (project/watcher.ts).
          'watch-worker': resolve(__dirname, 'src/main/core/project/watch-worker.ts'),
          // The database's WAL checkpoints, in their own thread (storage/wal-checkpoints.ts).
          'wal-worker': resolve(__dirname, 'src/main/core/storage/wal-worker.ts'),
        },
        // As in the CLI (vite.cli.config.ts): no doc comments, and ASCII only, so V8 keeps each chunk as a
        // one-byte string.
        output: { charset: 'ascii', comments: { legal: true, annotation: false, jsdoc: false } },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot load ES modules or node_modules: one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', charset: 'ascii', comments: { legal: true, annotation: false, jsdoc: false } },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    resolve: { alias },
    plugins: [react(), cspMeta()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      rollupOptions: {
        input: resolve(__dirname, 'src/renderer/index.html'),
        output: {
          // Third-party chunks apart from ours, so the security scan can tell whose code it reads.
          chunkFileNames: (chunk) =>
            chunk.moduleIds.length > 0 && chunk.moduleIds.every((id) => id.includes('/node_modules/'))
              ? 'assets/vendor/[name]-[hash].js'
              : 'assets/[name]-[hash].js',
        },
      },
    },
  },
})
