// The designer's own error codes, in one table (as xyflow keeps its error messages): a thrown
// DesignerError names the code so a report points straight at the cause.
export const designerErrors = {
  NO_PROVIDER: 'useDesigner() was called outside <DesignerProvider>: wrap the app in it.',
  NO_API: 'useApi() was called outside <ApiProvider>: wrap the app in it.',
} as const;

export type DesignerErrorCode = keyof typeof designerErrors;

export class DesignerError extends Error {
  constructor(readonly code: DesignerErrorCode) {
    super(`[streamwright/web ${code}] ${designerErrors[code]}`);
    this.name = 'DesignerError';
  }
}
