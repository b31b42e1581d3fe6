package dev.streamwright.oracle;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.HashMap;
import java.util.Map;

/** cel-java (Google's CEL for Java) with Streamwright's record variables. */
final class Cel {
  // Cross-type numeric comparisons (1 < 1.5) are standard CEL; cel-java keeps them behind a flag.
  private static final CelOptions OPTIONS =
      CelOptions.current().enableHeterogeneousNumericComparisons(true).build();
  private static final CelCompiler COMPILER =
      CelCompilerFactory.standardCelCompilerBuilder()
          .setOptions(OPTIONS)
          .addVar("key", SimpleType.DYN)
          .addVar("value", SimpleType.DYN)
          .addVar("timestamp", SimpleType.INT)
          .addVar("headers", MapType.create(SimpleType.STRING, SimpleType.STRING))
          .build();
  private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().setOptions(OPTIONS).build();

  private final CelRuntime.Program program;

  Cel(String expression) {
    try {
      CelAbstractSyntaxTree ast = COMPILER.compile(expression).getAst();
      program = RUNTIME.createProgram(ast);
    } catch (Exception e) {
      throw new IllegalArgumentException("CEL: " + e.getMessage(), e);
    }
  }

  Object eval(Object key, Object value, long timestamp) {
    Map<String, Object> vars = new HashMap<>();
    vars.put("key", key == null ? com.google.protobuf.NullValue.NULL_VALUE : key);
    vars.put("value", value == null ? com.google.protobuf.NullValue.NULL_VALUE : value);
    vars.put("timestamp", timestamp);
    vars.put("headers", Map.of());
    try {
      return program.eval(vars);
    } catch (Exception e) {
      throw new IllegalStateException("CEL evaluation failed: " + e.getMessage(), e);
    }
  }
}
