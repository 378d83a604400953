/**
 * TypeScript LanguageServices kept across edits, one per tsconfig.json (and one for files
 * outside any). Their root files are the open graph programs; everything they import is read
 * from disk once and cached, so an edit re-parses only the edited file and the type checker
 * only checks what the analysis asks about.
 *
 * A file its project's program does not hold yet also has a quick program of its own: the file
 * and TypeScript's ECMAScript libs, nothing it imports. A fresh project's first program parses
 * some 6 MB of declarations (TypeScript's libs with the DOM's, @types/node, tfjs: 800 files; a
 * folder with its own node_modules opened later in the same project, as much again), while VS
 * Code's TypeScript server parses the same on the same cores; the quick one parses the 0.5 MB of
 * ES libs, which the project's program then takes from the shared registry (once they are
 * parsed, a quick program costs some 30 ms).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { FileReadError, READ_LIMITS, readBoundedTextSync } from '../../runtime/bounded-read.js';

/** Told once per file the server refused to read (a FIFO, a device, a file over the cap). */
export type RefusedRead = (message: string) => void;

/**
 * TypeScript's host must read synchronously: every file it reads (imports, .d.ts, package.json,
 * tsconfig) goes through the bounded reader, which never blocks on a FIFO and refuses anything
 * but a regular file within the source cap. A refused file reads as missing, and is reported.
 */
export function boundedReader(onRefused: RefusedRead): (file: string) => string | undefined {
  const told = new Set<string>();
  return (file) => {
    try {
      return readBoundedTextSync(file, { maxBytes: READ_LIMITS.source, what: 'the file' });
    } catch (err) {
      if (err instanceof FileReadError && err.reason !== 'unreadable' && !told.has(file)) {
        told.add(file);
        onRefused(`${err.message} TypeScript analysis treats it as missing.`);
      }
      return undefined;
    }
  };
}

const DEFAULT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  esModuleInterop: true,
  skipLibCheck: true,
};

/** The open documents, shared by every project: text and version. Other files are read from disk once. */
export class OpenFiles {
  constructor(readonly readFile: (file: string) => string | undefined = boundedReader((m) => console.error(`[tfjs-callbacks] ${m}`))) {}

  readonly files = new Map<string, { text: string; version: number; snapshot?: TextSnapshot }>();
  private readonly disk = new Map<string, ts.IScriptSnapshot | undefined>();
  /** Per file, bumped when it leaves the open set or changes on disk, so services read it again. */
  private readonly diskVersions = new Map<string, number>();
  /** Bumped on every change of any file or root: services skip their up-to-date check when it is the same. */
  changes = 0;

  set(fileName: string, text: string, version: number): void {
    const old = this.files.get(fileName);
    if (old && old.version === version && old.text === text) return;
    this.files.set(fileName, { text, version });
    this.changes++;
  }

  close(fileName: string): void {
    this.files.delete(fileName);
    this.invalidate(fileName);
  }

  /** A file on disk changed (a save, a watched-file event). */
  invalidate(fileName: string): void {
    this.disk.delete(fileName);
    this.diskVersions.set(fileName, (this.diskVersions.get(fileName) ?? 0) + 1);
    this.changes++;
  }

  version(fileName: string): string {
    const open = this.files.get(fileName);
    return open ? `open:${open.version}` : `disk:${this.diskVersions.get(fileName) ?? 0}`;
  }

  snapshot(fileName: string): ts.IScriptSnapshot | undefined {
    const open = this.files.get(fileName);
    if (open) return (open.snapshot ??= new TextSnapshot(open.text));
    if (!this.disk.has(fileName)) {
      const text = this.readFile(fileName);
      this.disk.set(fileName, text === undefined ? undefined : ts.ScriptSnapshot.fromString(text));
    }
    return this.disk.get(fileName);
  }
}

/**
 * A snapshot that tells the LanguageService which span an edit changed (the text between the
 * common prefix and suffix), so it re-parses a 2,000-line file incrementally.
 */
class TextSnapshot implements ts.IScriptSnapshot {
  constructor(readonly text: string) {}

  getText(start: number, end: number): string {
    return this.text.slice(start, end);
  }

  getLength(): number {
    return this.text.length;
  }

  getChangeRange(oldSnapshot: ts.IScriptSnapshot): ts.TextChangeRange | undefined {
    if (!(oldSnapshot instanceof TextSnapshot)) return undefined;
    const a = oldSnapshot.text;
    const b = this.text;
    const max = Math.min(a.length, b.length);
    let prefix = 0;
    while (prefix < max && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
    let suffix = 0;
    while (suffix < max - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix++;
    return ts.createTextChangeRange(ts.createTextSpan(prefix, a.length - prefix - suffix), b.length - prefix - suffix);
  }
}

class Project {
  readonly roots = new Set<string>();
  readonly service: ts.LanguageService;
  /** The last program `service` made; undefined until its first. */
  built: ts.Program | undefined;
  /** The file alone (see the file comment), made when first asked for. */
  private quick: { readonly service: ts.LanguageService; setRoot(file: string): void } | undefined;
  private readonly host: ts.LanguageServiceHost;
  /**
   * Module resolutions kept across programs: opening or closing a document changes the root
   * files, and without the cache every import of every file would be resolved again.
   */
  private moduleCache!: ts.ModuleResolutionCache;
  private typeRefCache!: ts.TypeReferenceDirectiveResolutionCache;

  constructor(
    readonly dir: string,
    private readonly options: ts.CompilerOptions,
    open: OpenFiles,
    libDir: string | undefined,
    registry: ts.DocumentRegistry,
  ) {
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => this.options,
      getProjectVersion: () => String(open.changes),
      getScriptFileNames: () => [...this.roots],
      getScriptVersion: (f) => open.version(f),
      getScriptSnapshot: (f) => open.snapshot(f),
      getCurrentDirectory: () => this.dir,
      getDefaultLibFileName: (o) => (libDir ? path.join(libDir, ts.getDefaultLibFileName(o)) : ts.getDefaultLibFilePath(o)),
      fileExists: (f) => open.files.has(f) || ts.sys.fileExists(f),
      readFile: (f) => open.files.get(f)?.text ?? open.readFile(f),
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
      realpath: ts.sys.realpath,
      useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
      resolveModuleNameLiterals: (literals, containingFile, redirected, options, containingSourceFile) =>
        literals.map((literal) =>
          ts.resolveModuleName(
            literal.text,
            containingFile,
            options,
            host,
            this.moduleCache,
            redirected,
            ts.getModeForUsageLocation(containingSourceFile, literal, options),
          ),
        ),
      resolveTypeReferenceDirectiveReferences: (references, containingFile, redirected, options, containingSourceFile) =>
        references.map((ref) => {
          const name = typeof ref === 'string' ? ref : ref.fileName.toLowerCase();
          const mode = typeof ref === 'string' || !containingSourceFile ? undefined : ts.getModeForFileReference(ref, containingSourceFile.impliedNodeFormat);
          return ts.resolveTypeReferenceDirective(name, containingFile, options, host, redirected, this.typeRefCache, mode);
        }),
    };
    this.host = host;
    this.clearResolutions();
    this.service = ts.createLanguageService(host, registry);
  }

  program(): ts.Program | undefined {
    this.built = this.service.getProgram();
    return this.built;
  }

  /** The quick program of `fileName` alone (one at a time: the last file asked for). */
  quickProgram(fileName: string, registry: ts.DocumentRegistry): ts.Program | undefined {
    if (!this.quick) {
      const options: ts.CompilerOptions = { ...this.options, noResolve: true, types: [], lib: ecmaScriptLibs(this.options) };
      let root = fileName;
      const service = ts.createLanguageService(
        {
          ...this.host,
          getCompilationSettings: () => options,
          getScriptFileNames: () => [root],
          getProjectVersion: () => `${this.host.getProjectVersion?.()}:${root}`,
        },
        registry,
      );
      this.quick = { service, setRoot: (file) => (root = file) };
    }
    this.quick.setRoot(fileName);
    return this.quick.service.getProgram();
  }

  dispose(): void {
    this.service.dispose();
    this.quick?.service.dispose();
  }

  /** Files appeared or went away on disk: resolve imports afresh. */
  clearResolutions(): void {
    const canonical = (f: string) => (ts.sys.useCaseSensitiveFileNames ? f : f.toLowerCase());
    this.moduleCache = ts.createModuleResolutionCache(this.dir, canonical, this.options);
    this.typeRefCache = ts.createTypeReferenceDirectiveResolutionCache(this.dir, canonical, this.options, this.moduleCache.getPackageJsonInfoCache());
  }
}

export class TsProjects {
  readonly open: OpenFiles;
  private readonly projects = new Map<string, Project>();
  private readonly configOfDir = new Map<string, string | undefined>();
  private readonly registry = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames);
  /** Where TypeScript's lib*.d.ts were found; undefined: nowhere, and globals (Float32Array, …) have no types. */
  readonly libDir: string | undefined;

  constructor(searchRoots: readonly string[] = [], onRefused?: RefusedRead) {
    this.libDir = findLibDir(searchRoots);
    this.open = new OpenFiles(onRefused ? boundedReader(onRefused) : undefined);
  }

  /**
   * Records an open document's text. Graph programs (`root`) are analysed and become roots of
   * their project; other open files only lend their unsaved text to the programs that import them.
   */
  update(fileName: string, text: string, version: number, root: boolean): void {
    this.open.set(fileName, text, version);
    const project = this.projectFor(fileName);
    if (root !== project.roots.has(fileName)) this.open.changes++;
    if (root) project.roots.add(fileName);
    else for (const p of this.projects.values()) p.roots.delete(fileName);
  }

  /** A document was closed: it is read from disk again when imported. */
  close(fileName: string): void {
    for (const project of this.projects.values()) project.roots.delete(fileName);
    this.open.close(fileName);
  }

  /** The up-to-date program holding `fileName` (a root added with update). */
  program(fileName: string): ts.Program | undefined {
    return this.projectFor(fileName).program();
  }

  /**
   * A program of `fileName` alone with TypeScript's ECMAScript libs (its imports unresolved), for a
   * first analysis while its project's program does not hold it; undefined once it does.
   */
  quickProgram(fileName: string): ts.Program | undefined {
    const project = this.projectFor(fileName);
    return project.built?.getSourceFile(fileName) ? undefined : project.quickProgram(fileName, this.registry);
  }

  /** A file changed on disk (watched-file events): re-read it and resolve imports afresh. */
  fileChanged(fileName: string): void {
    this.open.invalidate(fileName);
    for (const project of this.projects.values()) project.clearResolutions();
  }

  dispose(): void {
    for (const project of this.projects.values()) project.dispose();
    this.projects.clear();
  }

  private projectFor(fileName: string): Project {
    const config = this.configFor(path.dirname(fileName));
    const key = config ?? '';
    let project = this.projects.get(key);
    if (!project) {
      const dir = config ? path.dirname(config) : path.dirname(fileName);
      project = new Project(
        dir,
        config ? readOptions(config, this.open.readFile) : { ...DEFAULT_OPTIONS, allowJs: true, noEmit: true },
        this.open,
        this.libDir,
        this.registry,
      );
      this.projects.set(key, project);
    }
    return project;
  }

  private configFor(dir: string): string | undefined {
    if (!this.configOfDir.has(dir)) {
      const found = ts.findConfigFile(dir, ts.sys.fileExists, 'tsconfig.json') ?? ts.findConfigFile(dir, ts.sys.fileExists, 'jsconfig.json');
      this.configOfDir.set(dir, found && path.resolve(found));
    }
    return this.configOfDir.get(dir);
  }
}

/**
 * The project's libs without the DOM's (lib.dom.d.ts alone is 1.8 MB): the ES lib of its target,
 * or its own `lib` list less dom, webworker and scripthost.
 */
function ecmaScriptLibs(options: ts.CompilerOptions): string[] {
  const own = options.lib?.filter((lib) => !/^lib\.(dom|webworker|scripthost)\b/.test(lib));
  if (own && own.length > 0) return own;
  const full = ts.getDefaultLibFileName(options);
  return [full === 'lib.d.ts' ? 'lib.es5.d.ts' : full === 'lib.es6.d.ts' ? 'lib.es2015.d.ts' : full.replace('.full.d.ts', '.d.ts')];
}

/** compilerOptions of a tsconfig (with `extends`), without listing its files: only open documents are roots. */
function readOptions(configFile: string, readFile: (file: string) => string | undefined): ts.CompilerOptions {
  const host: ts.ParseConfigFileHost = { ...ts.sys, readFile, readDirectory: () => [], onUnRecoverableConfigFileDiagnostic: () => {} };
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, host);
  const options = parsed ? { ...parsed.options } : { ...DEFAULT_OPTIONS };
  // Analysis only: never emit, and read JS graph programs too.
  for (const key of ['composite', 'incremental', 'tsBuildInfoFile', 'declaration', 'declarationMap', 'emitDeclarationOnly', 'outDir', 'outFile'] as const)
    delete options[key];
  return { ...options, noEmit: true, allowJs: true };
}

/**
 * Where TypeScript's lib*.d.ts are. Bundled into out/server.cjs, `ts.getDefaultLibFilePath`
 * points next to the bundle; look beside the extension and in the workspaces too.
 */
function findLibDir(searchRoots: readonly string[]): string | undefined {
  const script = process.argv[1] ? path.dirname(path.resolve(process.argv[1])) : undefined;
  const candidates = [
    path.dirname(ts.getDefaultLibFilePath({})),
    ...(script ? [path.join(script, '..', 'node_modules', 'typescript', 'lib'), path.join(script, 'node_modules', 'typescript', 'lib')] : []),
    ...searchRoots.map((root) => path.join(root, 'node_modules', 'typescript', 'lib')),
  ];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'lib.es2022.d.ts')));
}
