export declare const CHROMIUM_CANDIDATES: string[];
export declare function chromiumPath(env?: Record<string, string | undefined>): string | undefined | null;
export declare function isExecutable(path: string): boolean;
export declare function chromiumArgs(): string[];
