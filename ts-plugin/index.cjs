/**
 * TypeScript server plugin shipped with the tfjs-callback-debugger extension. A project run by the
 * extension needs no install of the runtime, but then the editor's TypeScript cannot find
 * `tfjs-callback-debugger/runtime` (ts2307 on every import). This plugin resolves that module to
 * the runtime's declarations inside the extension, and resolves the @tensorflow/* imports of those
 * declarations in the project when it has them, so the project's `tf.Tensor` is the runtime's.
 * It changes nothing a project resolves by itself.
 *
 * Plain CommonJS with no dependencies: tsserver loads it from the extension's node_modules.
 */
'use strict';
const path = require('node:path');
const fs = require('node:fs');

const RUNTIME = new Set(['tfjs-callback-debugger/runtime', 'tfjs-callback-debugger']);

/** The extension's folder: this package sits in its node_modules (possibly through a link). */
function extensionRoot() {
  for (let dir = fs.realpathSync(__dirname); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (dir !== fs.realpathSync(__dirname) && fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === 'tfjs-callback-debugger') return dir;
  }
  return path.resolve(__dirname, '..', '..');
}

function init({ typescript: ts }) {
  return {
    create(info) {
      const root = extensionRoot();
      const runtimeTypes = path.join(root, 'dist', 'runtime', 'index.d.ts');
      const inRuntime = (file) => file.startsWith(path.join(root, 'dist') + path.sep);
      const host = info.languageServiceHost;
      const projectDir = info.project.getCurrentDirectory();
      const log = (message) => info.project.projectService.logger.info(`[tfjs-callbacks-ts-plugin] ${message}`);
      if (!fs.existsSync(runtimeTypes)) {
        log(`no runtime declarations at ${runtimeTypes}: nothing to do`);
        return info.languageService;
      }
      const external = (resolvedFileName) => ({ resolvedModule: { resolvedFileName, extension: ts.Extension.Dts, isExternalLibraryImport: true }, failedLookupLocations: [] });
      /** A better resolution for `name` imported from `containingFile`, when the project's own has none. */
      const fallback = (name, containingFile, options) => {
        if (RUNTIME.has(name)) return external(runtimeTypes);
        // The runtime's declarations import @tensorflow/*: the project's copy first (one tf.Tensor type).
        if (name.startsWith('@tensorflow/') && inRuntime(containingFile)) {
          const fromProject = ts.resolveModuleName(name, path.join(projectDir, '__tfjs_callbacks__.ts'), options, ts.sys);
          if (fromProject.resolvedModule) return fromProject;
        }
        return undefined;
      };
      const preferProject = (name, containingFile) => name.startsWith('@tensorflow/') && inRuntime(containingFile);
      /**
       * The extension ships TF.js's Node bundles but not its declarations: where the project has no
       * @tensorflow/tfjs, TypeScript resolves the runtime's import of it to the bundle itself, and in
       * a project that reads JavaScript from node_modules (an inferred project with a .js file open:
       * maxNodeModuleJsDepth 2) infers types from it ('Property tensor does not exist on type typeof
       * seedrandom' on every tf.tensor). Unresolved instead: the runtime's tf is untyped there, no error.
       */
      const untypedBundle = (name, containingFile, result) =>
        preferProject(name, containingFile) && result.resolvedModule && !/\.d\.[cm]?ts$/.test(result.resolvedModule.resolvedFileName);
      const unresolved = { resolvedModule: undefined, failedLookupLocations: [] };
      if (host.resolveModuleNameLiterals) {
        const original = host.resolveModuleNameLiterals.bind(host);
        host.resolveModuleNameLiterals = (literals, containingFile, redirectedReference, options, ...rest) => {
          const results = original(literals, containingFile, redirectedReference, options, ...rest);
          return results.map((result, i) => {
            const name = literals[i].text;
            if (result.resolvedModule && !preferProject(name, containingFile)) return result;
            return fallback(name, containingFile, options) ?? (untypedBundle(name, containingFile, result) ? unresolved : result);
          });
        };
      } else if (host.resolveModuleNames) {
        const original = host.resolveModuleNames.bind(host);
        host.resolveModuleNames = (names, containingFile, reused, redirectedReference, options, ...rest) => {
          const results = original(names, containingFile, reused, redirectedReference, options, ...rest);
          return results.map((result, i) => {
            if (result && !preferProject(names[i], containingFile)) return result;
            const better = fallback(names[i], containingFile, options)?.resolvedModule;
            if (better) return better;
            return untypedBundle(names[i], containingFile, { resolvedModule: result }) ? undefined : result;
          });
        };
      }
      log(`'tfjs-callback-debugger/runtime' resolves to ${runtimeTypes} where a project does not install it`);
      return info.languageService;
    },
  };
}

module.exports = init;
