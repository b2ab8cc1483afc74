export type SdkName = 'elements' | 'iframe' | 'express';
export declare const SDK_SOURCES: Record<SdkName, { dir: string; entry: string; title: string }>;
export declare function elementInterfaceName(tag: string): string;
export declare function sdkDeclarations(name: SdkName): Promise<string>;
export declare function packageDeclarations(): Promise<string>;
export declare function customElementsManifest(name: 'elements' | 'express', globs: string[], outdir?: string): Promise<string>;
