#!/bin/sh
# Regenerates src/streams-config/kafka-config-names.ts from the Kafka jars in the local Maven
# repository (tools/kafka and tools/ks-oracle fetch kafka-clients and kafka-streams 4.1.1).
set -e
cd "$(dirname "$0")"
M="${MAVEN_REPO:-$HOME/.m2/repository}"
V=4.1.1
CP="$M/org/apache/kafka/kafka-clients/$V/kafka-clients-$V.jar:$M/org/apache/kafka/kafka-streams/$V/kafka-streams-$V.jar:$M/org/slf4j/slf4j-api/1.7.36/slf4j-api-1.7.36.jar"
java -cp "$CP" KafkaConfigNames.java 2>/dev/null > ../src/streams-config/kafka-config-names.ts
npx prettier --write ../src/streams-config/kafka-config-names.ts > /dev/null
