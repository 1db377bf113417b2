import { Module } from '@nestjs/common';
import {
  ArtifactsResolver,
  ArtifactVersionsResolver,
  SessionArtifactsResolver,
} from './artifacts.resolver';

@Module({ providers: [SessionArtifactsResolver, ArtifactsResolver, ArtifactVersionsResolver] })
export class ArtifactsModule {}
