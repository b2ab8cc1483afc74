export declare function installPacked(packageDir: string, alongside?: string[]): Promise<{ folder: string; tarball: string; remove(): Promise<void> }>;
export declare function strictTypeErrors(folder: string, files: Record<string, string>, extra?: string[]): Promise<string[]>;
