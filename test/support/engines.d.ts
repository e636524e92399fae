export declare const ENGINES: readonly string[];
export declare const FIREFOX_PATH: string;
