/**
 * The few parts of `oidc-provider` (a test-only dependency that ships no types) the test
 * provider in oidc-provider.ts uses.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  interface GrantClass {
    new (init: { clientId: string; accountId: string | undefined }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  export interface KoaContextWithOIDC {
    path: string;
    body: unknown;
    status: number;
    type: string;
    response: { get(name: string): string };
    oidc: {
      provider: Provider;
      result?: { consent?: { grantId?: string } };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    };
  }

  type Middleware = (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: GrantClass;
    use(middleware: Middleware): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
