package dev.streamwright.oracle;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * cel-java (Google's CEL for Java) with Streamwright's variable sets: record expressions (key,
 * value, timestamp, headers), aggregators and reducers (key, value, agg), initializers (none).
 */
final class Cel {
  enum Family { RECORD, AGGREGATE, INITIALIZER, JOIN }

  // Cross-type numeric comparisons (1 < 1.5) are standard CEL; cel-java keeps them behind a flag.
  private static final CelOptions OPTIONS =
      CelOptions.current().enableHeterogeneousNumericComparisons(true).build();
  private static final Map<Family, CelCompiler> COMPILERS = new HashMap<>();
  private static final CelRuntime RUNTIME =
      CelRuntimeFactory.standardCelRuntimeBuilder().setOptions(OPTIONS).build();

  static {
    CelCompilerBuilder record = CelCompilerFactory.standardCelCompilerBuilder().setOptions(OPTIONS)
        .addVar("key", SimpleType.DYN)
        .addVar("value", SimpleType.DYN)
        .addVar("timestamp", SimpleType.INT)
        .addVar("headers", MapType.create(SimpleType.STRING, SimpleType.STRING));
    COMPILERS.put(Family.RECORD, record.build());
    COMPILERS.put(Family.AGGREGATE, CelCompilerFactory.standardCelCompilerBuilder().setOptions(OPTIONS)
        .addVar("key", SimpleType.DYN)
        .addVar("value", SimpleType.DYN)
        .addVar("agg", SimpleType.DYN)
        .build());
    COMPILERS.put(Family.JOIN, CelCompilerFactory.standardCelCompilerBuilder().setOptions(OPTIONS)
        .addVar("key", SimpleType.DYN)
        .addVar("left", SimpleType.DYN)
        .addVar("right", SimpleType.DYN)
        .build());
    COMPILERS.put(Family.INITIALIZER,
        CelCompilerFactory.standardCelCompilerBuilder().setOptions(OPTIONS).build());
  }

  private final CelRuntime.Program program;
  final String source;

  Cel(String expression, Family family) {
    this.source = expression;
    try {
      CelAbstractSyntaxTree ast = COMPILERS.get(family).compile(expression).getAst();
      program = RUNTIME.createProgram(ast);
    } catch (Exception e) {
      throw new IllegalArgumentException("CEL: " + e.getMessage(), e);
    }
  }

  Cel(String expression) {
    this(expression, Family.RECORD);
  }

  Object eval(Object key, Object value, long timestamp) {
    Map<String, Object> vars = new HashMap<>();
    vars.put("key", Values.toCel(key));
    vars.put("value", Values.toCel(value));
    vars.put("timestamp", timestamp);
    vars.put("headers", Map.of());
    return run(vars);
  }

  Object evalAggregate(Object key, Object value, Object agg) {
    Map<String, Object> vars = new HashMap<>();
    vars.put("key", Values.toCel(key));
    vars.put("value", Values.toCel(value));
    vars.put("agg", Values.toCel(agg));
    return run(vars);
  }

  Object evalJoin(Object key, Object left, Object right) {
    Map<String, Object> vars = new HashMap<>();
    vars.put("key", Values.toCel(key));
    vars.put("left", Values.toCel(left));
    vars.put("right", Values.toCel(right));
    return run(vars);
  }

  Object evalInitializer() {
    return run(new HashMap<>());
  }

  private Object run(Map<String, Object> vars) {
    try {
      return Values.normalize(program.eval(vars));
    } catch (Exception e) {
      throw new IllegalStateException("CEL evaluation failed: " + e.getMessage(), e);
    }
  }
}
