/**
 * `npm run typecheck`'s proof that the typed client holds the panel, the console and the scanner to the API's
 * answers (issue 43): each case changes one route's answer in a copy of the generated schema
 * (`apps/api/client/schema.d.ts`, served to the compiler in memory; the file is never written) the way a route change
 * would, and compiles the caller that expects the old answer. The check fails when the unchanged schema gives an
 * error (the baseline) or a changed one gives none in the expected file (the client no longer types the answer).
 */
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const schemaFile = path.join(root, 'apps/api/client/schema.d.ts');

interface Case {
  /** What the route change is. */
  name: string;
  /** The operation (its key in the schema's `operations`) whose answer changes. */
  operation: string;
  /** The first occurrence of `from` in that operation becomes `to`. */
  from: string;
  to: string;
  /** The caller (under apps/panel/src) that must no longer compile. */
  caller: string;
}

const cases: Case[] = [
  {
    name: "GET /v1/auth/me answers the nickname as a number (the panel's User has a string)",
    operation: 'getMe',
    from: 'nickname: string;',
    to: 'nickname: number;',
    caller: 'lib/queries.ts',
  },
  {
    name: 'POST /v1/resell no longer answers shareLinkUrl',
    operation: 'createResale',
    from: 'shareLinkUrl: string;',
    to: 'shareLink: string;',
    caller: 'features/resell/api/resell-create.api.ts',
  },
  {
    name: "GET /v1/org/tickets/import answers maxRows as a string (the console's ImportLimits has a number)",
    operation: 'getImportLimits',
    from: 'maxRows: number;',
    to: 'maxRows: string;',
    caller: 'console/import/api/import-limits.api.ts',
  },
  {
    name: "POST /v1/access/check-in no longer answers holderName (the door's CheckInResponse has it)",
    operation: 'checkIn',
    from: 'holderName: string;',
    to: 'holder: string;',
    caller: 'scanner/door-api.ts',
  },
];

/** The schema with `c`'s change in its operation. */
function changed(schema: string, c: Case): string {
  const start = schema.indexOf(`\n    ${c.operation}: {\n`);
  const at = schema.indexOf(c.from, start);
  if (start < 0 || at < 0) throw new Error(`check-client-types: ${c.operation} or "${c.from}" not in the schema`);
  return schema.slice(0, at) + c.to + schema.slice(at + c.from.length);
}

const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'apps/panel/tsconfig.json'), undefined, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  },
});
if (!config) throw new Error('check-client-types: no apps/panel/tsconfig.json');

const host = ts.createCompilerHost(config.options);
const read = host.getSourceFile.bind(host);
/** Every other file is read and parsed once for all the compilations. */
const parsed = new Map<string, ts.SourceFile | undefined>();
let schemaNow = '';
host.getSourceFile = (file, language, ...rest) => {
  if (path.resolve(file) === schemaFile) return ts.createSourceFile(file, schemaNow, language);
  if (!parsed.has(file)) parsed.set(file, read(file, language, ...rest));
  return parsed.get(file);
};

/** The errors of compiling the callers with `schema` in place of the generated file: every file they reach. */
function errors(callers: string[], schema: string): ts.Diagnostic[] {
  schemaNow = schema;
  const program = ts.createProgram(
    callers.map((c) => path.join(root, 'apps/panel/src', c)),
    config!.options,
    host,
  );
  return [...ts.getPreEmitDiagnostics(program)];
}

/**
 * The errors in `caller` itself when it is compiled with `schema` in place of the generated file: the same as
 * `errors([caller], schema)` restricted to that file, without checking every other file it reaches (each of those
 * was checked against the unchanged schema by the baseline and by `tsc -p apps/panel`); about a third of the script's
 * CPU before (decision 028 section 15).
 */
function callerErrors(caller: string, schema: string): ts.Diagnostic[] {
  schemaNow = schema;
  const file = path.join(root, 'apps/panel/src', caller);
  const program = ts.createProgram([file], config!.options, host);
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`check-client-types: ${caller} not found`);
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
}

const format = (ds: ts.Diagnostic[]) =>
  ts.formatDiagnostics(ds, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' });

const schema = ts.sys.readFile(schemaFile);
if (schema === undefined) throw new Error(`check-client-types: ${schemaFile} missing`);
let failed = false;
const baseline = errors(
  cases.map((c) => c.caller),
  schema,
);
if (baseline.length) {
  console.error(`check-client-types: the callers do not compile against the generated schema:\n${format(baseline)}`);
  failed = true;
}
for (const c of cases) {
  const found = callerErrors(c.caller, changed(schema, c)).filter((d) => d.file?.fileName.endsWith(c.caller));
  if (found.length) console.log(`ok: ${c.name}: ${c.caller} no longer compiles`);
  else {
    console.error(`check-client-types: ${c.name}, yet ${c.caller} still compiles`);
    failed = true;
  }
}
if (failed) process.exit(1);
