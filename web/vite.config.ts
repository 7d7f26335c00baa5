import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions, defineConfig, type Plugin } from 'vite';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every text asset of the build, once, at
 * maximum compression; the server sends whichever the browser accepts (@fastify/static's
 * preCompressed) without compressing anything per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'doctors-portal:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
          const file = path.join(dir, entry.name);
          return entry.isDirectory() ? walk(file) : [file];
        });
      for (const file of walk(outDir)) {
        if (!/\.(js|css|svg|html|json|txt|xml|webmanifest)$/.test(file) || file.includes('.vite'))
          continue;
        const content = fs.readFileSync(file);
        if (content.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
        fs.writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * The entry imports React DOM with `import()` so that the browser evaluates it in a task of its
 * own (src/main.tsx). This asks for that chunk, and what it imports, in the page itself, so that
 * it downloads alongside the entry instead of after it.
 */
function preloadInPage(modules: RegExp): Plugin {
  return {
    name: 'doctors-portal:preload-in-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return;
        const inPage = new Set([entry.fileName, ...entry.imports]);
        const files = new Set<string>();
        const visit = (file: string) => {
          const chunk = bundle[file];
          if (chunk?.type !== 'chunk' || inPage.has(file) || files.has(file)) return;
          files.add(file);
          for (const imported of chunk.imports) visit(imported);
        };
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === 'chunk' && modules.test(chunk.facadeModuleId ?? '')) {
            visit(chunk.fileName);
          }
        }
        return [...files].map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/**
 * Two builds (`npm run build`): the browser's app into dist/, and with `--ssr src/prerender.tsx`
 * the module the server prerenders the public pages with, into dist/.ssr/, which is never served
 * (a dot folder). Its image addresses are the browser build's: the same files, the same hashes.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    tailwindcss(),
    ...(isSsrBuild
      ? []
      : [preloadInPage(/[\\/]node_modules[\\/]react-dom[\\/]client\.js$/), precompress()]),
  ],
  // Read the shared contract package from its TypeScript sources, in both builds.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: {
    noExternal: ['@doctors-portal/contract'],
    resolve: { conditions: ['source', ...defaultServerConditions] },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    target: 'es2022',
    assetsInlineLimit: 0,
    manifest: !isSsrBuild,
    copyPublicDir: !isSsrBuild,
  },
}));
