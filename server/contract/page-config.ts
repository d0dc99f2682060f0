import { Type, type Static } from '@sinclair/typebox';

/**
 * The page configuration the server injects into index.html as `window.FileBrowser`
 * (api.md §3.19): keys and types exactly as filebrowser's, so its frontend contract holds, plus
 * filemgr's additive IssueTracker.
 */
export const PageConfigSchema = Type.Object({
  AuthMethod: Type.String(),
  BaseURL: Type.String(),
  CSS: Type.Boolean(),
  Color: Type.String(),
  DisableExternal: Type.Boolean(),
  DisableUsedPercentage: Type.Boolean(),
  EnableExec: Type.Boolean(),
  EnableThumbs: Type.Boolean(),
  HideLoginButton: Type.Boolean(),
  /** filemgr's addition: branding's issue tracker address ('' = no "Report Issue" link). */
  IssueTracker: Type.String(),
  LoginPage: Type.Boolean(),
  /** filemgr's addition: the OpenID provider's name on "Sign in with <name>" ('' = no OpenID sign-in). */
  OidcName: Type.String(),
  /** filemgr's addition: false when --oidc.passwordLogin=false (no password form). */
  PasswordLogin: Type.Boolean(),
  LogoutPage: Type.String(),
  Name: Type.String(),
  NoAuth: Type.Boolean(),
  ReCaptcha: Type.Boolean(),
  ReCaptchaHost: Type.Optional(Type.String()),
  ReCaptchaKey: Type.Optional(Type.String()),
  ResizePreview: Type.Boolean(),
  Signup: Type.Boolean(),
  StaticURL: Type.String(),
  Theme: Type.String(),
  /** filemgr's addition: whether DELETE keeps items in the trash (beyond.md §3). */
  Trash: Type.Boolean(),
  TusSettings: Type.Object({ chunkSize: Type.Number(), retryCount: Type.Number() }),
  Version: Type.String(),
  /** filemgr's addition: whether `<baseURL>/dav/` is served (false under --disableWebDAV). */
  WebDAV: Type.Boolean(),
});

export type PageConfig = Static<typeof PageConfigSchema>;
