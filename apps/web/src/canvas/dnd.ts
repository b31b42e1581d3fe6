/** The MIME type a palette item carries in an HTML5 drag onto the canvas. */
export const KIND_MIME = 'application/x-streamwright-kind';
