// @streamwright/codegen: translators between the topology document and code or text. Pure
// functions, framework-free and browser-safe (the designer runs them; so do the CLI and tests).
export { exportDsl, type DslExport } from './dsl-export.js';
export {
  DescribeParseError,
  importDescribe,
  looksLikeDescribe,
  parseDescribe,
  type DescribedNode,
  type DescribeImport,
} from './describe-import.js';
