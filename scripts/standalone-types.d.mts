import type ts from 'typescript';

export interface TypeRoot {
  symbol?: ts.Symbol;
  file?: string;
  name: string;
  as?: string;
}
export interface ElementRoot {
  symbol?: ts.Symbol;
  file?: string;
  name?: string;
  as: string;
}
export declare function typeProgram(tsconfigPath: string, files: string[]): ts.Program;
export declare function standaloneDeclarations(program: ts.Program, roots: { types?: TypeRoot[]; elements?: ElementRoot[] }): string;
export declare function globalAugmentations(
  program: ts.Program,
  dir: string,
): { globals: { name: string; symbol: ts.Symbol }[]; tags: { tag: string; symbol: ts.Symbol }[] };
