// Declarations that import nothing, printed from the types a package's sources export: the published `.d.ts` of a
// browser SDK (served beside its script), of the loader and React packages, and the parts of @svc/node's types that
// come from protocol. TypeScript's checker resolves each exported type (a zod schema's inferred type too) and this
// prints it as plain TypeScript: a type of the workspace that has a name (a type alias, an interface) is declared once
// under that name and referred to by it; anything else (zod's and Lit's machinery, generic helpers) is written out;
// the DOM's and the language's own types (HTMLElement, Promise, Record) keep their names. JSDoc comments come along.
import ts from 'typescript';

/**
 * @typedef {object} TypeRoot One exported type to declare (or a constant or a function: `declare const`, `declare
 *   function`): its symbol, or the file that exports it and its name.
 * @property {ts.Symbol} [symbol]
 * @property {string} [file] The source file that exports it (absolute).
 * @property {string} name Its exported name.
 * @property {string} [as] The name to declare it under (its own by default).
 *
 * @typedef {object} ElementRoot A custom element's class, declared as an interface over HTMLElement with its public
 *   properties and methods, and an event map from its JSDoc `@event {EventClass} name - text` tags.
 * @property {ts.Symbol} [symbol]
 * @property {string} [file]
 * @property {string} [name] The class's exported name.
 * @property {string} as The interface's name (`SvcEcomSdkExpressElement`); the event map is `<as>EventMap`.
 */

/** A program over `files` with the compiler options of the tsconfig that owns them. */
export function typeProgram(tsconfigPath, files) {
  const config = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail(d) });
  if (!config) throw new Error(`cannot read ${tsconfigPath}`);
  return ts.createProgram(files, { ...config.options, noEmit: true });
}

function fail(diagnostic) {
  throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

/**
 * Prints declarations for `types` and `elements` (see the typedefs) and every named type they reach. Resolves to the
 * declarations' text, each `export`ed, in the order they were reached.
 * @param {ts.Program} program
 * @param {{ types?: TypeRoot[], elements?: ElementRoot[] }} roots
 */
export function standaloneDeclarations(program, { types = [], elements = [] }) {
  const checker = program.getTypeChecker();
  const printer = new DeclarationPrinter(program, checker);
  for (const root of types) printer.declareRoot(root.symbol ?? exportedSymbol(program, checker, root), root.as ?? root.name);
  for (const root of elements) printer.declareElement(root.symbol ?? exportedSymbol(program, checker, root), root.as);
  return printer.text();
}

function exportedSymbol(program, checker, { file, name }) {
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === name);
  if (!symbol) throw new Error(`${file} exports no ${name}`);
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const quoteKey = (name) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

class DeclarationPrinter {
  /** name → declaration text (undefined while it is being printed) */
  #declared = new Map();
  /** symbol → the name it is declared under */
  #names = new Map();
  #queue = [];

  /** type → the symbol of a workspace alias or interface that names it (a zod schema's inferred type is reached this way) */
  #known = new Map();

  constructor(program, checker) {
    this.program = program;
    this.checker = checker;
    for (const file of program.getSourceFiles()) {
      const module = !file.isDeclarationFile && !/[\\/]node_modules[\\/]/.test(file.fileName) && checker.getSymbolAtLocation(file);
      if (!module) continue;
      for (const exported of checker.getExportsOfModule(module)) {
        const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        if (!(symbol.flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Interface)) || !isWorkspaceSource(symbol)) continue;
        const type = checker.getDeclaredTypeOfSymbol(symbol);
        if (isGeneric(type) || !worthNaming(type) || this.#known.has(type)) continue;
        this.#known.set(type, symbol);
      }
    }
  }

  text() {
    while (this.#queue.length) this.#queue.shift()();
    return [...this.#declared.values()].join('\n\n') + '\n';
  }

  declareRoot(symbol, name) {
    this.#claim(symbol, name);
    this.#queue.push(() => this.#declare(symbol, name));
  }

  declareElement(classSymbol, name) {
    const checker = this.checker;
    const declaration = classSymbol.valueDeclaration;
    if (!declaration || !ts.isClassDeclaration(declaration)) throw new Error(`${classSymbol.name} is not a class`);
    this.#claim(classSymbol, name);
    this.#queue.push(() => {
      const instance = checker.getDeclaredTypeOfSymbol(classSymbol);
      const members = [];
      for (const member of declaration.members) {
        if (!member.name || ts.isPrivateIdentifier(member.name) || !isPublicOwnMember(member)) continue;
        const property = checker.getPropertyOfType(instance, member.name.getText());
        if (!property || members.some((m) => m.name === property.name)) continue;
        members.push({ name: property.name, text: this.#member(property) });
      }
      const events = elementEvents(declaration).map(({ className, type, summary }) => {
        const eventClass = checker.getSymbolsInScope(declaration, ts.SymbolFlags.Alias | ts.SymbolFlags.Class).find((s) => s.name === className);
        if (!eventClass) throw new Error(`${classSymbol.name}'s @event ${type} names ${className}, which its file does not import`);
        const resolved = eventClass.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(eventClass) : eventClass;
        const detail = checker.getPropertyOfType(checker.getDeclaredTypeOfSymbol(resolved), 'detail');
        return `${doc(summary, '  ')}  ${JSON.stringify(type)}: CustomEvent<${this.#type(checker.getTypeOfSymbol(detail))}>;`;
      });
      const map = `${name}EventMap`;
      const listener = (method) =>
        [
          `  ${method}<K extends keyof ${map}>(type: K, listener: (this: ${name}, event: ${map}[K]) => unknown, options?: boolean | ${method === 'addEventListener' ? 'AddEventListenerOptions' : 'EventListenerOptions'}): void;`,
          `  ${method}(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | ${method === 'addEventListener' ? 'AddEventListenerOptions' : 'EventListenerOptions'}): void;`,
        ].join('\n');
      this.#declared.set(
        name,
        `${doc(jsDocText(classSymbol, checker), '')}export interface ${name} extends HTMLElement {\n${members.map((m) => m.text).join('\n')}\n${listener('addEventListener')}\n${listener('removeEventListener')}\n}`,
      );
      this.#declared.set(
        map,
        `/** The events of \`${name}\`: each a CustomEvent, bubbling and composed. */\nexport interface ${map} extends HTMLElementEventMap {\n${events.join('\n')}\n}`,
      );
    });
  }

  #claim(symbol, name) {
    const taken = [...this.#names].find(([, other]) => other === name);
    if (taken && taken[0] !== symbol) throw new Error(`two types would be declared as ${name}`);
    this.#names.set(symbol, name);
    if (!this.#declared.has(name)) this.#declared.set(name, undefined);
  }

  #declare(symbol, name) {
    const checker = this.checker;
    const comment = doc(jsDocText(symbol, checker), '');
    if (symbol.flags & ts.SymbolFlags.Function) {
      const signatures = checker.getTypeOfSymbol(symbol).getCallSignatures();
      this.#declared.set(name, signatures.map((signature) => `${comment}export declare function ${name}${this.#signature(signature, ': ')};`).join('\n'));
      return;
    }
    if (symbol.flags & ts.SymbolFlags.Variable) {
      this.#declared.set(name, `${comment}export declare const ${name}: ${this.#type(checker.getTypeOfSymbol(symbol), true)};`);
      return;
    }
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    if (symbol.flags & ts.SymbolFlags.Interface && !(symbol.flags & ts.SymbolFlags.TypeAlias)) {
      const members = checker.getPropertiesOfType(type).map((property) => this.#member(property));
      const indexes = checker.getIndexInfosOfType(type).map((info) => `  [key: ${this.#type(info.keyType)}]: ${this.#type(info.type)};`);
      this.#declared.set(name, `${comment}export interface ${name} {\n${[...members, ...indexes].join('\n')}\n}`);
    } else {
      this.#declared.set(name, `${comment}export type ${name} = ${this.#type(type, true)};`);
    }
  }

  /** A property or method of an object type, with its JSDoc, two spaces in. */
  #member(property) {
    const checker = this.checker;
    const comment = doc(jsDocText(property, checker), '  ');
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    const key = quoteKey(property.name);
    const type = checker.getTypeOfSymbol(property);
    if (declaration && (ts.isMethodSignature(declaration) || ts.isMethodDeclaration(declaration))) {
      return type
        .getCallSignatures()
        .map((signature) => `${comment}  ${key}${this.#signature(signature, ': ')};`)
        .join('\n');
    }
    const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
    const readonly = declaration && isReadonly(declaration, property);
    return `${comment}  ${readonly ? 'readonly ' : ''}${key}${optional ? '?' : ''}: ${this.#type(type, false, optional)};`;
  }

  #signature(signature, arrow) {
    const checker = this.checker;
    const parameters = signature.getParameters().map((parameter) => {
      const declaration = parameter.valueDeclaration;
      const rest = declaration && ts.isParameter(declaration) && declaration.dotDotDotToken ? '...' : '';
      const optional = declaration && ts.isParameter(declaration) && checker.isOptionalParameter(declaration) && !rest ? '?' : '';
      const type = checker.getTypeOfSymbol(parameter);
      return `${rest}${parameter.name}${optional}: ${this.#type(type, false, optional !== '')}`;
    });
    return `(${parameters.join(', ')})${arrow}${this.#type(checker.getReturnTypeOfSignature(signature))}`;
  }

  /**
   * A type as text: a named workspace type by its name (declared once), the rest written out (`expand`: this one
   * written out even when it has a name). `optional`: an optional property's or parameter's, shown without `| undefined`.
   */
  #type(type, expand = false, optional = false) {
    const checker = this.checker;
    const f = ts.TypeFlags;
    if (!expand) {
      const named = this.#nameOf(type);
      if (named) return named;
    }
    if (type.flags & f.Any) return 'any';
    if (type.flags & f.Unknown) return 'unknown';
    if (type.flags & f.Never) return 'never';
    if (type.flags & (f.String | f.Number | f.Boolean | f.Undefined | f.Null | f.Void | f.BigInt | f.ESSymbol | f.BooleanLiteral)) {
      return checker.typeToString(type);
    }
    if (type.flags & f.StringLiteral) return JSON.stringify(type.value);
    if (type.flags & f.NumberLiteral) return String(type.value);
    if (type.isUnion()) {
      const members = optional ? type.types.filter((t) => !(t.flags & f.Undefined)) : type.types;
      const hasTrue = members.some((t) => t.flags & f.BooleanLiteral && checker.typeToString(t) === 'true');
      const hasFalse = members.some((t) => t.flags & f.BooleanLiteral && checker.typeToString(t) === 'false');
      const parts = members.filter((t) => !(hasTrue && hasFalse && t.flags & f.BooleanLiteral)).map((t) => this.#inUnion(t));
      if (hasTrue && hasFalse) parts.splice(0, 0, 'boolean');
      return parts.join(' | ');
    }
    if (type.isIntersection()) return type.types.map((t) => this.#inUnion(t)).join(' & ');
    if (checker.isArrayType(type)) {
      const [element] = checker.getTypeArguments(type);
      const readonly = type.symbol?.name === 'ReadonlyArray' ? 'readonly ' : '';
      return `${readonly}${this.#inArray(element)}[]`;
    }
    if (checker.isTupleType(type)) {
      const readonly = type.target?.readonly ? 'readonly ' : '';
      return `${readonly}[${checker
        .getTypeArguments(type)
        .map((t) => this.#type(t))
        .join(', ')}]`;
    }
    if (isFromLibrary(type.symbol) || isFromLibrary(type.aliasSymbol)) return this.#libraryType(type);
    if (type.flags & f.TypeParameter) return type.symbol.name;
    if (type.flags & f.Object) return this.#objectLiteral(type);
    throw new Error(`cannot print the type ${checker.typeToString(type)}`);
  }

  #inUnion(type) {
    const text = this.#type(type);
    return /=>/.test(text) && !text.startsWith('{') ? `(${text})` : text;
  }

  #inArray(type) {
    const text = this.#type(type);
    return / \| | & |=>/.test(text) && !text.startsWith('{') ? `(${text})` : text;
  }

  /** A DOM or language type (Promise<T>, HTMLElement, Record<K, V>) by its own name, its type arguments printed here. */
  #libraryType(type) {
    const checker = this.checker;
    const symbol = type.aliasSymbol ?? type.symbol;
    const args = type.aliasSymbol ? (type.aliasTypeArguments ?? []) : type.flags & ts.TypeFlags.Object ? checker.getTypeArguments(type) : [];
    return args.length ? `${symbol.name}<${args.map((t) => this.#type(t)).join(', ')}>` : symbol.name;
  }

  #objectLiteral(type) {
    const checker = this.checker;
    const properties = checker.getPropertiesOfType(type);
    const calls = type.getCallSignatures();
    const indexes = checker.getIndexInfosOfType(type);
    if (calls.length === 1 && properties.length === 0 && indexes.length === 0) return this.#signature(calls[0], ' => ');
    const members = [
      ...calls.map((signature) => `${this.#signature(signature, ': ')};`),
      ...properties.map((property) => this.#member(property).replace(/^ {2}/gm, '')),
      ...indexes.map((info) => `[key: ${this.#type(info.keyType)}]: ${this.#type(info.type)};`),
    ];
    if (members.length === 0) return '{}';
    return `{ ${members.join(' ').replace(/\n/g, ' ')} }`;
  }

  /** The name a type is declared under, when it has one of the workspace's own (declaring it on first use). */
  #nameOf(type) {
    const symbol =
      this.#known.get(type) ??
      (type.aliasSymbol && !type.aliasTypeArguments?.length
        ? type.aliasSymbol
        : !type.aliasSymbol && type.symbol && type.symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class) && !isGeneric(type)
          ? type.symbol
          : null);
    if (!symbol || !isWorkspaceSource(symbol)) return null;
    const known = this.#names.get(symbol);
    if (known) return known;
    this.#claim(symbol, symbol.name);
    this.#queue.push(() => this.#declare(symbol, symbol.name));
    return symbol.name;
  }
}

/** An object type or a union: a primitive or a literal (`type Cents = number`) is written as it is, never by a name. */
function worthNaming(type) {
  return (type.flags & ts.TypeFlags.Object) !== 0 || type.isUnion() || type.isIntersection();
}

function isGeneric(type) {
  return (type.typeParameters?.length ?? 0) > 0 || (type.target?.typeParameters?.length ?? 0) > 0;
}

function isFromLibrary(symbol) {
  const file = symbol?.declarations?.[0]?.getSourceFile();
  return Boolean(file && (file.hasNoDefaultLib || /[\\/]typescript[\\/]lib[\\/]lib\./.test(file.fileName)));
}

/** Declared in the workspace's own sources (not a library's, not TypeScript's). */
function isWorkspaceSource(symbol) {
  const file = symbol.declarations?.[0]?.getSourceFile();
  return Boolean(file && !file.isDeclarationFile && !/[\\/]node_modules[\\/]/.test(file.fileName));
}

function isPublicOwnMember(member) {
  const flags = ts.getCombinedModifierFlags(member);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected | ts.ModifierFlags.Static | ts.ModifierFlags.Override)) return false;
  return ts.isPropertyDeclaration(member) || ts.isGetAccessorDeclaration(member) || ts.isSetAccessorDeclaration(member) || ts.isMethodDeclaration(member);
}

function isReadonly(declaration, property) {
  if (ts.isMappedTypeNode(declaration)) return declaration.readonlyToken !== undefined && declaration.readonlyToken.kind !== ts.SyntaxKind.MinusToken;
  if (ts.isGetAccessorDeclaration(declaration)) return !property.declarations?.some((d) => ts.isSetAccessorDeclaration(d));
  return (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly) !== 0;
}

/** `@event {ReadyEvent} svc-ready - text` tags of an element's class. */
function elementEvents(declaration) {
  return ts
    .getJSDocTags(declaration)
    .filter((tag) => tag.tagName.text === 'event')
    .map((tag) => {
      const text = ts.getTextOfJSDocComment(tag.comment) ?? '';
      const match = /^\{(\w+)\}\s+([\w-]+)\s+-\s+([\s\S]*)$/.exec(text.trim());
      if (!match) throw new Error(`@event ${text}: write it as @event {EventClass} name - what it says`);
      return { className: match[1], type: match[2], summary: match[3].replace(/\s+/g, ' ') };
    });
}

function jsDocText(symbol, checker) {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const tags = symbol
    .getJsDocTags(checker)
    .filter((tag) => tag.name === 'deprecated' || tag.name === 'default')
    .map((tag) => `@${tag.name}${tag.text ? ` ${ts.displayPartsToString(tag.text)}` : ''}`);
  return [text, ...tags].filter(Boolean).join('\n');
}

function doc(text, indent) {
  if (!text) return '';
  const lines = text.split('\n');
  if (lines.length === 1 && lines[0].length < 100) return `${indent}/** ${lines[0].replace(/\*\//g, '*\\/')} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line.replace(/\*\//g, '*\\/')}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/**
 * What the source files under `dir` add to the page's globals: `declare global { interface Window { … } }` members
 * (a global an SDK installs) and `interface HTMLElementTagNameMap { … }` members (a custom element it registers), each
 * with the exported symbol its type names.
 * @param {ts.Program} program
 * @param {string} dir
 * @returns {{ globals: { name: string, symbol: ts.Symbol }[], tags: { tag: string, symbol: ts.Symbol }[] }}
 */
export function globalAugmentations(program, dir) {
  const checker = program.getTypeChecker();
  const found = { globals: [], tags: [] };
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(dir) || file.isDeclarationFile) continue;
    for (const statement of file.statements) {
      if (!ts.isModuleDeclaration(statement) || statement.name.getText() !== 'global' || !statement.body || !ts.isModuleBlock(statement.body)) continue;
      for (const declaration of statement.body.statements) {
        if (!ts.isInterfaceDeclaration(declaration)) continue;
        for (const member of declaration.members) {
          if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeReferenceNode(member.type)) continue;
          const referenced = checker.getSymbolAtLocation(member.type.typeName);
          const symbol = referenced && referenced.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(referenced) : referenced;
          const name = ts.isStringLiteral(member.name) ? member.name.text : member.name.getText();
          if (!symbol) continue;
          if (declaration.name.text === 'Window') found.globals.push({ name, symbol });
          if (declaration.name.text === 'HTMLElementTagNameMap') found.tags.push({ tag: name, symbol });
        }
      }
    }
  }
  return found;
}
